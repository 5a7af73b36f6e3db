package dev.jobqueue.internal.store;

import dev.jobqueue.internal.JndiNames;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.PersistenceException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import javax.sql.DataSource;

/**
 * Plain JDBC in the current JTA transaction, on {@code java:comp/DefaultDataSource}, the datasource of the
 * application's persistence units: the server shares one physical connection among the users of a datasource
 * within a transaction, so these statements commit or roll back with the caller's work and its JPA provider's.
 * Every statement of jobqueue runs here, none through JPA: the JPA providers of the servers jobqueue runs on
 * differ where jobqueue would need them alike. EclipseLink (Payara) maps no {@link Instant} before JPA 3.2 and
 * reads zone-less timestamps (MariaDB's DATETIME) in the JVM's zone where Hibernate is told UTC; named and
 * collection-valued parameters and scalar result classes of native queries are Hibernate's alone. Here every
 * instant is bound and read in UTC by {@link Database}, on every server.
 */
@ApplicationScoped
class TransactionalJdbc {

    /** Work on the connection, told which database it is. */
    @FunctionalInterface
    interface Work<T> {
        T run(Connection connection, Database database) throws SQLException;
    }

    /** The persistence unit's jta-data-source. */
    @Resource(lookup = JndiNames.DATASOURCE)
    DataSource dataSource;

    private volatile Database database;

    /** @throws PersistenceException if a statement fails, as it would from the EntityManager */
    <T> T run(Work<T> work) {
        try (Connection connection = dataSource.getConnection()) {
            return work.run(connection, database(connection));
        } catch (SQLException e) {
            throw new PersistenceException("jobqueue: " + e.getMessage(), e);
        }
    }

    /** Reads one row of a result; the database tells how to read an instant. */
    @FunctionalInterface
    interface RowReader<T> {
        T read(ResultSet row, Database database) throws SQLException;
    }

    /**
     * The rows of a query, each read by {@code reader}. Parameters are bound in order, as {@link #bind} does.
     *
     * @throws PersistenceException if the statement fails
     */
    <T> List<T> query(String sql, RowReader<T> reader, Object... parameters) {
        return run((connection, db) -> query(connection, db, sql, reader, parameters));
    }

    /** {@link #query(String, RowReader, Object...)} on a connection in hand. */
    static <T> List<T> query(Connection connection, Database db, String sql, RowReader<T> reader,
            Object... parameters) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            bind(statement, db, parameters);
            List<T> rows = new ArrayList<>();
            try (ResultSet result = statement.executeQuery()) {
                while (result.next()) {
                    rows.add(reader.read(result, db));
                }
            }
            return rows;
        }
    }

    /**
     * Runs an INSERT, UPDATE or DELETE; returns the rows it changed. Parameters are bound as {@link #bind} does.
     *
     * @throws PersistenceException if the statement fails
     */
    int update(String sql, Object... parameters) {
        return run((connection, db) -> {
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                bind(statement, db, parameters);
                return statement.executeUpdate();
            }
        });
    }

    /**
     * Binds {@code parameters} from the first on: an {@link Instant} as {@link Database#bind} does (in UTC), an
     * enum by its name, a collection as one parameter per element (for an IN list of
     * {@link Database#placeholders}), null as a NULL string.
     */
    static void bind(PreparedStatement statement, Database db, Object... parameters) throws SQLException {
        int index = 1;
        for (Object parameter : parameters) {
            if (parameter instanceof Collection<?> values) {
                for (Object value : values) {
                    bindOne(statement, db, index++, value);
                }
            } else {
                bindOne(statement, db, index++, parameter);
            }
        }
    }

    private static void bindOne(PreparedStatement statement, Database db, int index, Object value)
            throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.VARCHAR);
        } else if (value instanceof Instant instant) {
            db.bind(statement, index, instant);
        } else if (value instanceof Enum<?> constant) {
            statement.setString(index, constant.name());
        } else if (value instanceof String text) {
            statement.setString(index, text);
        } else if (value instanceof Integer number) {
            statement.setInt(index, number);
        } else if (value instanceof Long number) {
            statement.setLong(index, number);
        } else if (value instanceof Boolean flag) {
            statement.setBoolean(index, flag);
        } else {
            throw new IllegalArgumentException("jobqueue: no binding for " + value.getClass().getName());
        }
    }

    private Database database(Connection connection) throws SQLException {
        Database known = database;
        if (known == null) {
            known = Database.of(connection.getMetaData().getDatabaseProductName());
            database = known;
        }
        return known;
    }
}
