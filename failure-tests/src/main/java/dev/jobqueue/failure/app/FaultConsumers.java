package dev.jobqueue.failure.app;

import dev.jobqueue.Consumer;
import dev.jobqueue.JobContext;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.sql.SQLException;

/**
 * The consumers of the random-fault scenario, one queue per behaviour. Retries wait at most two seconds, so a
 * job hit by a fault finishes within the run; every other option is jobqueue's default (20 attempts).
 */
@ApplicationScoped
public class FaultConsumers {

    /** Attempts of a doomed job: it fails every one, then becomes FAILED. */
    public static final int DOOMED_ATTEMPTS = 2;

    @Inject
    FaultLog log;

    @Resource(lookup = "java:comp/TransactionSynchronizationRegistry")
    TransactionSynchronizationRegistry transaction;

    /** Short transactional jobs: plain, rollback-only on attempt 1, keyed, grouped, chained. */
    @Consumer(queue = "rf-short", backoffMax = "2s")
    public void shortJob(FaultJob job, JobContext context) throws SQLException, InterruptedException {
        run(job, context);
    }

    /** Jobs that run longer than the lease: renewal must keep them. */
    @Consumer(queue = "rf-long", backoffMax = "2s")
    public void longJob(FaultJob job, JobContext context) throws SQLException, InterruptedException {
        run(job, context);
    }

    /** Jobs with ordering keys. */
    @Consumer(queue = "rf-ordered", backoffMax = "2s")
    public void orderedJob(FaultJob job, JobContext context) throws SQLException, InterruptedException {
        run(job, context);
    }

    /** Jobs that fail every attempt: they end FAILED, and so do the jobs that wait for them. */
    @Consumer(queue = "rf-doomed", maxAttempts = DOOMED_ATTEMPTS, backoffDelays = "1s")
    public void doomedJob(FaultJob job, JobContext context) throws SQLException {
        log.started(context, job);
        log.effect(context, job);
        throw new IllegalStateException("doomed job " + job.n() + " fails every attempt");
    }

    /** Non-transactional jobs: at least once, so their effect may be written more than once. */
    @Consumer(queue = "rf-plain", transactional = false, backoffMax = "2s")
    public void plainJob(FaultJob job, JobContext context) throws SQLException, InterruptedException {
        log.started(context, job);
        Thread.sleep(job.millis());
        log.effectAlone(context, job);
    }

    private void run(FaultJob job, JobContext context) throws SQLException, InterruptedException {
        log.started(context, job);
        Thread.sleep(job.millis());
        log.effect(context, job);
        if (job.rollbackFirst() && context.attempt() == 1) {
            // As a consumer that catches a PersistenceException and returns does: the transaction cannot commit.
            log.markingRollbackOnly(context, job);
            transaction.setRollbackOnly();
        }
    }
}
