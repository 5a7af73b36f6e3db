package dev.jobqueue.internal.dispatch;

import dev.jobqueue.internal.store.ClaimedJob;
import dev.jobqueue.internal.store.LeaseStore;
import dev.jobqueue.internal.task.OutageLog;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.logging.Logger;

/**
 * Releases the claimed jobs of one queue's worker that will not run here, fenced by their leases, so that a
 * claim takes them again. A job that cannot be released now goes to the {@link UnsettledLeases}, which try again
 * each round of the lease keeper until its lease expires.
 */
final class Handback {

    /** The worker's logger: its lines keep the name that logging settings know them by. */
    private static final Logger LOG = Logger.getLogger(QueueWorker.class.getName());

    private final String queue;
    private final Duration lease;
    private final LeaseStore leases;
    private final UnsettledLeases unsettled;
    private final ExecutorService executor;
    private final OutageLog outage;
    private final Runnable wake;

    /**
     * @param outage the poller's record of the database's outages
     * @param wake   asks the worker for a poll
     */
    Handback(String queue, Duration lease, LeaseStore leases, UnsettledLeases unsettled, ExecutorService executor,
            OutageLog outage, Runnable wake) {
        this.queue = queue;
        this.lease = lease;
        this.leases = leases;
        this.unsettled = unsettled;
        this.executor = executor;
        this.outage = outage;
        this.wake = wake;
    }

    /** Releases one job, and polls so that it runs soon. */
    void release(ClaimedJob job) {
        try {
            leases.release(List.of(job));
            wake.run();
        } catch (RuntimeException e) {
            // The database is out: the poller's record logs it once for the outage, not once per job.
            outage.failed(e);
            unsettled.handBackFailed(job, lease);
            LOG.fine(() -> "jobqueue: cannot release job " + job.id() + " of queue " + queue
                    + " for a claim now; the lease keeper tries again: " + e);
        }
    }

    /** Releases one job on the server's executor, rather than on the calling thread. */
    void releaseLater(ClaimedJob job) {
        try {
            executor.execute(() -> release(job));
        } catch (RejectedExecutionException e) {
            LOG.info(() -> "jobqueue: job " + job.id() + " of queue " + queue + " was put as this node"
                    + " stopped; it runs once its lease expires");
        }
    }

    /** Releases jobs claimed and not started, without a poll: the queue backs off. */
    void releaseUnstarted(List<ClaimedJob> jobs) {
        try {
            leases.release(jobs);
        } catch (RuntimeException e) {
            outage.failed(e);
            jobs.forEach(job -> unsettled.handBackFailed(job, lease));
        }
    }
}
