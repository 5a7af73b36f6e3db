package dev.jobqueue.internal.store;

import dev.jobqueue.internal.Messages;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.sql.Array;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * A pooled connection held to LISTEN on PostgreSQL's wake channel, and the messages it receives.
 *
 * <p>Receiving needs the driver's {@code org.postgresql.PGConnection}. The driver sits in the server's JDBC
 * library, which the application's class loader does not see, so its types are loaded through the class loader
 * of an object the driver made (an empty array), and reached through the server connection's {@code unwrap}.
 */
public final class ListenConnection implements AutoCloseable {

    /** The channel puts notify and nodes listen on. */
    public static final String CHANNEL = "jobqueue";

    /** How the connection shows in {@code pg_stat_activity}. */
    public static final String APPLICATION_NAME = "jobqueue-listener";

    private final Connection connection;
    /** The connection's application name before it listened, given back with it. */
    private final String applicationName;
    private final Object driverConnection;
    private final Method getNotifications;
    private final Method getParameter;

    private ListenConnection(Connection connection, String applicationName, Object driverConnection,
            Method getNotifications, Method getParameter) {
        this.connection = connection;
        this.applicationName = applicationName;
        this.driverConnection = driverConnection;
        this.getNotifications = getNotifications;
        this.getParameter = getParameter;
    }

    /**
     * Takes a connection from {@code dataSource} and listens on it.
     *
     * @return empty, with the connection given back, if the database is not PostgreSQL
     * @throws SQLFeatureNotSupportedException if the driver is not PostgreSQL's JDBC driver (pgjdbc)
     * @throws SQLException                    if the database cannot be reached
     */
    public static Optional<ListenConnection> open(DataSource dataSource) throws SQLException {
        Connection connection = dataSource.getConnection();
        try {
            if (Database.of(connection.getMetaData().getDatabaseProductName()) != Database.POSTGRESQL) {
                connection.close();
                return Optional.empty();
            }
            Array made = connection.createArrayOf("text", new Object[0]);
            ClassLoader driver = made.getClass().getClassLoader();
            made.free();
            Class<?> pgConnection = Class.forName("org.postgresql.PGConnection", false, driver);
            Class<?> pgNotification = Class.forName("org.postgresql.PGNotification", false, driver);
            String applicationName = connection.getClientInfo("ApplicationName");
            ListenConnection listening = new ListenConnection(connection, applicationName == null ? "" : applicationName,
                    connection.unwrap(pgConnection), pgConnection.getMethod("getNotifications", int.class),
                    pgNotification.getMethod("getParameter"));
            connection.setClientInfo("ApplicationName", APPLICATION_NAME);
            try (Statement listen = connection.createStatement()) {
                listen.execute("LISTEN " + CHANNEL);
            }
            return Optional.of(listening);
        } catch (ReflectiveOperationException e) {
            connection.close();
            throw new SQLFeatureNotSupportedException(Messages.notPgjdbc(e), e);
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    /** The messages that arrive within {@code wait}, returned as soon as there are any; empty if none came. */
    public List<String> receive(Duration wait) throws SQLException {
        Object[] notifications = (Object[]) invoke(getNotifications, driverConnection, (int) wait.toMillis());
        if (notifications == null) {
            return List.of();
        }
        List<String> messages = new ArrayList<>(notifications.length);
        for (Object notification : notifications) {
            messages.add((String) invoke(getParameter, notification));
        }
        return messages;
    }

    /** Whether the database still answers on this connection within {@code timeout}. */
    public boolean isValid(Duration timeout) throws SQLException {
        return connection.isValid((int) Math.max(1, timeout.toSeconds()));
    }

    /**
     * Stops listening and gives the connection back with its application name as it was: a pool that does not reset
     * it (WildFly's) would otherwise lend the connection on as a listener's. If UNLISTEN fails, the connection is
     * aborted instead, so no pooled connection keeps collecting notifications.
     */
    @Override
    public void close() {
        try {
            if (!connection.isClosed()) {
                try (Statement unlisten = connection.createStatement()) {
                    unlisten.execute("UNLISTEN *");
                }
                connection.setClientInfo("ApplicationName", applicationName);
            }
            connection.close();
        } catch (SQLException e) {
            try {
                connection.abort(Runnable::run);
            } catch (SQLException | RuntimeException ignored) {
                // the connection is broken already: the pool discards it
            }
        }
    }

    private static Object invoke(Method method, Object target, Object... args) throws SQLException {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof SQLException sql) {
                throw sql;
            }
            throw new SQLException(e.getCause());
        } catch (IllegalAccessException e) {
            throw new SQLException(e);
        }
    }
}
