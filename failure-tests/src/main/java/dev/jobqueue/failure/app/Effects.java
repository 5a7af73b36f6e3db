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

    /** Works for the payload's time, then writes the effect in the caller's (the consumer's) transaction. */
    @Transactional(TxType.MANDATORY)
    public void apply(JobContext job, Work work) throws SQLException, InterruptedException {
        if (work.millis() > 0) {
            Thread.sleep(work.millis());
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
