package dev.jobqueue.internal.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Keeps nodes that start together from changing the schema at the same time. Without it, two nodes creating
 * the same table race: PostgreSQL fails one node's {@code CREATE TABLE IF NOT EXISTS} with a duplicate-key
 * error on its catalogue, and the node's deployment fails.
 */
final class SchemaLock {

    /** The PostgreSQL advisory lock's key: "jobq" in ASCII. */
    private static final long POSTGRESQL_KEY = 0x6a6f6271L;
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

    private static void inLockedTransaction(Connection connection, Change change) throws SQLException {
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try {
            try (PreparedStatement lock = connection.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
                lock.setLong(1, POSTGRESQL_KEY);
                lock.executeQuery().close();
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
