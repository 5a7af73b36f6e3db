package dev.jobqueue.failure.app;

import dev.jobqueue.GroupFinished;
import dev.jobqueue.JobContext;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * What the random-fault consumers do, written to {@code rf_log} so the test can check it: starts and markers in
 * transactions of their own, which survive a rollback or a kill, and effects in the consumer's transaction. The
 * log's identity column orders the rows as they were written, which is how the test checks ordering keys.
 */
@ApplicationScoped
public class FaultLog {

    @Resource(lookup = "java:comp/DefaultDataSource")
    DataSource dataSource;

    /** Logs that this attempt started on this node; commits at once, whatever happens to the job. */
    @Transactional(TxType.REQUIRES_NEW)
    public void started(JobContext context, FaultJob job) throws SQLException {
        log(context, job, "start");
    }

    /** Logs that this attempt is about to mark its transaction rollback-only; commits at once. */
    @Transactional(TxType.REQUIRES_NEW)
    public void markingRollbackOnly(JobContext context, FaultJob job) throws SQLException {
        log(context, job, "rollback");
    }

    /** Writes the job's effect in the consumer's transaction: it exists exactly when the job was marked DONE. */
    @Transactional(TxType.MANDATORY)
    public void effect(JobContext context, FaultJob job) throws SQLException {
        log(context, job, "effect");
    }

    /** Writes the effect of a non-transactional consumer, in a transaction of its own. */
    @Transactional(TxType.REQUIRES_NEW)
    public void effectAlone(JobContext context, FaultJob job) throws SQLException {
        log(context, job, "effect");
    }

    /**
     * Records one delivery of {@code event}. A retry of the same delivery, after an error at commit, passes the same
     * {@code delivery} id, which the table's primary key keeps from being counted twice.
     */
    @Transactional(TxType.REQUIRES_NEW)
    public void groupFinished(String delivery, GroupFinished event) throws SQLException {
        write("INSERT INTO rf_group_event (delivery, grp, done, failed, node, at_millis) VALUES (?, ?, ?, ?, ?, ?)",
                delivery, event.group(), event.done(), event.failed(), Effects.NODE, System.currentTimeMillis());
    }

    /** Whether a delivery was recorded, for a retry that does not know whether its first try committed. */
    @Transactional(TxType.REQUIRES_NEW)
    public boolean recorded(String delivery) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement query = connection.prepareStatement("SELECT 1 FROM rf_group_event WHERE delivery = ?")) {
            query.setString(1, delivery);
            return query.executeQuery().next();
        }
    }

    private void log(JobContext context, FaultJob job, String event) throws SQLException {
        write("INSERT INTO rf_log (job_id, n, attempt, node, event, at_millis) VALUES (?, ?, ?, ?, ?, ?)",
                context.id().toString(), job.n(), context.attempt(), Effects.NODE, event, System.currentTimeMillis());
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
