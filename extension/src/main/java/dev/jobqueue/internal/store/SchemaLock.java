package dev.jobqueue.internal.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import java.util.logging.Logger;

/**
 * Keeps nodes that start together from changing the schema at the same time. Without it, two nodes creating
 * the same table race: PostgreSQL fails one node's {@code CREATE TABLE IF NOT EXISTS} with a duplicate-key
 * error on its catalogue, and the node's deployment fails.
 */
final class SchemaLock {

    /** The PostgreSQL advisory lock's key: "jobq" in ASCII. */
    private static final long POSTGRESQL_KEY = 0x6a6f6271L;
    /**
     * How long the PostgreSQL change waits for a table lock before it rolls back and tries again. Its
     * transaction holds each lock it took until it ends, so a running node's transaction that reads two of the
     * tables in the other order could deadlock with it; and while it waits, that node's queries queue behind it.
     */
    private static final String LOCK_TIMEOUT = "5s";
    private static final int POSTGRESQL_ATTEMPTS = 10;
    private static final long RETRY_PAUSE_MILLIS = 500;
    /** PostgreSQL's deadlock_detected and lock_not_available. */
    private static final Set<String> LOCK_CONFLICTS = Set.of("40P01", "55P03");
    private static final Logger LOG = Logger.getLogger(SchemaLock.class.getName());
    private static final String MARIADB_NAME = "jobqueue.schema";
    private static final int MARIADB_WAIT_SECONDS = 300;

    /** A change of the schema. */
    interface Change {
        void apply() throws SQLException;
    }

    private SchemaLock() {
    }

    /**
     * Applies the change while no other node applies one. On PostgreSQL the change is one transaction that
     * holds a transaction-scoped advisory lock, so it also holds through PgBouncer's transaction pooling, and a
     * failed change leaves nothing half done. On MariaDB, whose DDL commits each statement, it holds a named lock.
     * H2 runs embedded in one server, so nothing else changes its schema.
     */
    static void around(Connection connection, Database database, Change change) throws SQLException {
        switch (database) {
            case POSTGRESQL -> inLockedTransaction(connection, change);
            case MARIADB -> underNamedLock(connection, change);
            case H2 -> change.apply();
        }
    }

    /**
     * Applies the change in one transaction under the advisory lock; when it conflicts with the locks of the
     * running nodes' transactions (a deadlock, or a table lock not granted within {@link #LOCK_TIMEOUT}), rolls
     * it back and tries again, up to {@link #POSTGRESQL_ATTEMPTS} times.
     */
    private static void inLockedTransaction(Connection connection, Change change) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                inLockedTransactionOnce(connection, change);
                return;
            } catch (SQLException e) {
                if (attempt == POSTGRESQL_ATTEMPTS || !LOCK_CONFLICTS.contains(e.getSQLState())) {
                    throw e;
                }
                LOG.info("jobqueue: the schema script conflicted with other transactions' locks (" + e.getMessage()
                        + "); trying again");
                pause(attempt * RETRY_PAUSE_MILLIS);
            }
        }
    }

    private static void inLockedTransactionOnce(Connection connection, Change change) throws SQLException {
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try {
            try (PreparedStatement lock = connection.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
                lock.setLong(1, POSTGRESQL_KEY);
                lock.executeQuery().close();
            }
            try (Statement timeout = connection.createStatement()) {
                timeout.execute("SET LOCAL lock_timeout = '" + LOCK_TIMEOUT + "'");
            }
            change.apply();
            connection.commit();
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(autoCommit);
        }
    }

    private static void pause(long millis) throws SQLException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while waiting to apply the schema script again", e);
        }
    }

    private static void underNamedLock(Connection connection, Change change) throws SQLException {
        try (PreparedStatement lock = connection.prepareStatement("SELECT GET_LOCK(?, ?)")) {
            lock.setString(1, MARIADB_NAME);
            lock.setInt(2, MARIADB_WAIT_SECONDS);
            try (ResultSet granted = lock.executeQuery()) {
                if (!granted.next() || granted.getInt(1) != 1) {
                    throw new SQLException("another node held the lock " + MARIADB_NAME + " on the schema for "
                            + MARIADB_WAIT_SECONDS + " s");
                }
            }
        }
        try {
            change.apply();
        } finally {
            try (PreparedStatement release = connection.prepareStatement("SELECT RELEASE_LOCK(?)")) {
                release.setString(1, MARIADB_NAME);
                release.executeQuery().close();
            }
        }
    }
}
