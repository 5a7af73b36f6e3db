package dev.jobqueue.bench.runner;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/** The database's count of committed transactions, from pg_stat_database. */
final class DatabaseCommits {

    /** Idle backends flush their counts to pg_stat_database within 10 s. */
    private static final long SETTLE_MILLIS = 11_000;

    private final String url;
    private final String user;

    DatabaseCommits(String url, String user) {
        this.url = url;
        this.user = user;
    }

    /** The count once every backend has flushed what it committed so far. */
    long settledCount() throws Exception {
        Thread.sleep(SETTLE_MILLIS);
        try (Connection connection = DriverManager.getConnection(url, user, "");
                Statement query = connection.createStatement();
                ResultSet row = query.executeQuery(
                        "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()")) {
            row.next();
            return row.getLong(1);
        }
    }
}
