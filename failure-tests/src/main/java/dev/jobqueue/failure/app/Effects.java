package dev.jobqueue.failure.app;

import dev.jobqueue.JobContext;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * What the consumers do, written so the test can count it: every start is logged in its own transaction, so
 * it survives a rollback or a kill; the effect is written in the consumer's transaction, so it exists exactly
 * when the job was marked DONE.
 */
@ApplicationScoped
public class Effects {

    static final String NODE = System.getProperty("chaos.node", "?");
    private static final long RELEASE_CHECK_MILLIS = 50;

    @Resource(lookup = "java:comp/DefaultDataSource")
    DataSource dataSource;

    /** Logs that this attempt started on this node; commits at once, whatever happens to the job. */
    @Transactional(TxType.REQUIRES_NEW)
    public void logStart(JobContext job, Work work) throws SQLException {
        write("INSERT INTO failure_start (job_id, n, attempt, node, started_at) VALUES (?, ?, ?, ?, ?)",
                job.id().toString(), work.n(), job.attempt(), NODE, System.currentTimeMillis());
    }

    /** How many attempts of the job have started, on any node, this one included. */
    public int starts(JobContext job) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement count = connection.prepareStatement("SELECT COUNT(*) FROM failure_start WHERE job_id = ?")) {
            count.setString(1, job.id().toString());
            try (ResultSet row = count.executeQuery()) {
                row.next();
                return row.getInt(1);
            }
        }
    }

    /** When {@link #releaseWorkUnderWay} was last called, in epoch milliseconds; 0 if never. */
    private static volatile long releasedAt;

    /** Ends at once the work of every consumer call under way on this node; calls that start later work their time. */
    public static void releaseWorkUnderWay() {
        releasedAt = System.currentTimeMillis();
    }

    /**
     * Works for the payload's time, or until {@link #releaseWorkUnderWay} is called, then writes the effect in the
     * caller's (the consumer's) transaction.
     */
    @Transactional(TxType.MANDATORY)
    public void apply(JobContext job, Work work) throws SQLException, InterruptedException {
        long started = System.currentTimeMillis();
        for (long left = work.millis(); left > 0 && releasedAt < started;
                left = started + work.millis() - System.currentTimeMillis()) {
            Thread.sleep(Math.min(left, RELEASE_CHECK_MILLIS));
        }
        write("INSERT INTO failure_effect (job_id, queue, n, node, done_at) VALUES (?, ?, ?, ?, ?)",
                job.id().toString(), job.queue(), work.n(), NODE, System.currentTimeMillis());
    }

    private void write(String sql, Object... values) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement insert = connection.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                insert.setObject(i + 1, values[i]);
            }
            insert.executeUpdate();
        }
    }
}
