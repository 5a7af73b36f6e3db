package dev.jobqueue.failure;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/** The tables the random-fault scenario's application writes to: the manifest, the log and the group events. */
final class FaultTables {

    private FaultTables() {
    }

    static void create(TestDatabase db) throws SQLException {
        String identity = db == TestDatabase.POSTGRESQL ? "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY"
                : "BIGINT AUTO_INCREMENT PRIMARY KEY";
        try (Connection connection = db.connect(); Statement sql = connection.createStatement()) {
            // One row per committed job, written in the put's transaction: what it is and how it must end.
            sql.execute("CREATE TABLE rf_job (job_id VARCHAR(36) NOT NULL PRIMARY KEY, kind VARCHAR(16) NOT NULL,"
                    + " n INTEGER NOT NULL, queue VARCHAR(100) NOT NULL, expect VARCHAR(8) NOT NULL,"
                    + " planned INTEGER NOT NULL, parent VARCHAR(36))");
            // Starts, rollback-only markers and effects, in the order they were written.
            sql.execute("CREATE TABLE rf_log (id " + identity + ", job_id VARCHAR(36) NOT NULL, n INTEGER NOT NULL,"
                    + " attempt INTEGER NOT NULL, node VARCHAR(8) NOT NULL, event VARCHAR(8) NOT NULL,"
                    + " at_millis BIGINT NOT NULL)");
            sql.execute("CREATE INDEX rf_log_job ON rf_log (job_id)");
            // Every GroupFinished observed, once per delivery.
            sql.execute("CREATE TABLE rf_group_event (delivery VARCHAR(36) NOT NULL PRIMARY KEY,"
                    + " grp VARCHAR(200) NOT NULL, done BIGINT NOT NULL, failed BIGINT NOT NULL,"
                    + " node VARCHAR(8) NOT NULL, at_millis BIGINT NOT NULL)");
        }
    }
}
