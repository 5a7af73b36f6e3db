package dev.jobqueue.bench.runner;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one transaction per job costs PostgreSQL alone: plain JDBC, no application server, on a scratch copy of
 * the job table with all its indexes. A transactional consumer's job ends in a transaction that marks its row
 * DONE, and a put of one job per transaction inserts a row; these two measurements are the most jobqueue could
 * reach with one such transaction per job, beside the single-row UPDATE limit.
 */
final class JobRowCommits {

    private static final String TABLE = "bench_job_rows";
    private static final String FINISH = "UPDATE " + TABLE + " SET state = 'DONE', finished_at = ?, lease_token = NULL,"
            + " lease_expires_at = NULL WHERE id = ? AND lease_token = ? AND state = 'RUNNING' AND has_dependents = FALSE";
    private static final String INSERT = "INSERT INTO " + TABLE + " (id, queue, state, payload, attempts, priority,"
            + " run_at, created_at) VALUES (?, 'bench-rows', 'PENDING', '1', 0, 0, ?, ?)";
    /** More RUNNING rows than the finishing threads can mark DONE in the measured time. */
    private static final int RUNNING_ROWS = 400_000;

    private final String url;
    private final String user;
    private final int threads;
    private final Duration duration;

    JobRowCommits(String url, String user, int threads, Duration duration) {
        this.url = url;
        this.user = user;
        this.threads = threads;
        this.duration = duration;
    }

    /** Transactions per second that each mark one RUNNING job row DONE, with the statement jobqueue uses. */
    double finishes() throws Exception {
        recreateTable();
        try (Connection connection = DriverManager.getConnection(url, user, "");
                Statement fill = connection.createStatement()) {
            fill.execute("INSERT INTO " + TABLE + " (id, queue, state, payload, attempts, priority, run_at, created_at,"
                    + " started_at, lease_token, lease_expires_at) SELECT 'job-' || n, 'bench-rows', 'RUNNING', '1', 1, 0,"
                    + " now(), now(), now(), 'lease-' || (n % " + threads + "), now() + interval '1 hour'"
                    + " FROM generate_series(0, " + (RUNNING_ROWS - 1) + ") n");
            fill.execute("VACUUM ANALYZE " + TABLE);
        }
        try {
            return transactionsPerSecond(FINISH, (statement, thread, i) -> {
                long row = i * threads + thread;
                statement.setObject(1, OffsetDateTime.now());
                statement.setString(2, "job-" + row);
                statement.setString(3, "lease-" + (row % threads));
            });
        } finally {
            dropTable();
        }
    }

    /** Transactions per second that each insert one PENDING job row. */
    double inserts() throws Exception {
        recreateTable();
        try {
            return transactionsPerSecond(INSERT, (statement, thread, i) -> {
                OffsetDateTime now = OffsetDateTime.now();
                statement.setString(1, UUID.randomUUID().toString());
                statement.setObject(2, now);
                statement.setObject(3, now);
            });
        } finally {
            dropTable();
        }
    }

    /**
     * Rows per second inserted by transactions that each insert {@code perTransaction} PENDING job rows with one
     * JDBC batch (addBatch, executeBatch, COMMIT): the limit of a bulk put.
     */
    double batchInserts(int perTransaction) throws Exception {
        recreateTable();
        try {
            return perTransaction * transactionsPerSecond(INSERT, (statement, thread, i) -> {
                OffsetDateTime now = OffsetDateTime.now();
                for (int row = 0; row < perTransaction; row++) {
                    statement.setString(1, UUID.randomUUID().toString());
                    statement.setObject(2, now);
                    statement.setObject(3, now);
                    statement.addBatch();
                }
            });
        } finally {
            dropTable();
        }
    }

    private interface Binder {
        void bind(PreparedStatement statement, int thread, long iteration) throws SQLException;
    }

    /** Each thread runs BEGIN, the statement, COMMIT, as a transaction in an application server does. */
    private double transactionsPerSecond(String sql, Binder binder) throws Exception {
        AtomicLong commits = new AtomicLong();
        long end = System.nanoTime() + duration.toNanos();
        List<Thread> running = new ArrayList<>();
        List<Exception> failures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            Thread worker = new Thread(() -> {
                try (Connection connection = DriverManager.getConnection(url, user, "");
                        PreparedStatement statement = connection.prepareStatement(sql)) {
                    connection.setAutoCommit(false);
                    for (long i = 0; System.nanoTime() < end; i++) {
                        binder.bind(statement, thread, i);
                        if (!rowsWritten(statement)) {
                            throw new IllegalStateException("no row for " + sql + " in iteration " + i);
                        }
                        connection.commit();
                        commits.incrementAndGet();
                    }
                } catch (Exception e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            });
            worker.start();
            running.add(worker);
        }
        for (Thread worker : running) {
            worker.join();
        }
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
        return commits.get() / (double) duration.toSeconds();
    }

    /** Runs the statement, or the batch its binder added; whether every statement wrote one row. */
    private static boolean rowsWritten(PreparedStatement statement) throws SQLException {
        int[] batch = statement.executeBatch();
        if (batch.length > 0) {
            return Arrays.stream(batch).allMatch(rows -> rows == 1 || rows == Statement.SUCCESS_NO_INFO);
        }
        return statement.executeUpdate() == 1;
    }

    private void recreateTable() throws SQLException {
        dropTable();
        try (Connection connection = DriverManager.getConnection(url, user, "");
                Statement ddl = connection.createStatement()) {
            ddl.execute("CREATE TABLE " + TABLE + " (LIKE jobqueue_job INCLUDING ALL)");
        }
    }

    private void dropTable() throws SQLException {
        try (Connection connection = DriverManager.getConnection(url, user, "");
                Statement ddl = connection.createStatement()) {
            ddl.execute("DROP TABLE IF EXISTS " + TABLE);
        }
    }
}
