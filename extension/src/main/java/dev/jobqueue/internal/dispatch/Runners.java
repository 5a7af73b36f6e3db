package dev.jobqueue.internal.dispatch;

import dev.jobqueue.internal.config.QueueOptions;
import dev.jobqueue.internal.store.ClaimedJob;
import dev.jobqueue.internal.time.LeaseClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The runner tasks of one queue's worker: up to {@code concurrency} tasks on the server's executor, each taking
 * the jobs of one call after another from the buffer and handing them to the {@link CallRunner}. A job whose
 * lease may have run out while it waited is handed back instead of started.
 */
final class Runners {

    /** The worker's logger: its lines keep the name that logging settings know them by. */
    private static final Logger LOG = Logger.getLogger(QueueWorker.class.getName());

    private static final long TURN_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final QueueWorker worker;
    private final QueueOptions options;
    private final ExecutorService executor;
    private final ClaimBuffer buffer;
    private final CallRunner calls;
    private final ClaimSizer claimSizer;
    private final RunningJobs running;
    private final LeaseClock leaseClock;
    private final AtomicInteger active = new AtomicInteger();

    Runners(QueueWorker worker, QueueOptions options, ExecutorService executor, ClaimBuffer buffer, CallRunner calls,
            ClaimSizer claimSizer, RunningJobs running, LeaseClock leaseClock) {
        this.worker = worker;
        this.options = options;
        this.executor = executor;
        this.buffer = buffer;
        this.calls = calls;
        this.claimSizer = claimSizer;
        this.running = running;
        this.leaseClock = leaseClock;
    }

    /** Starts runner tasks until there are {@code concurrency} of them or one per buffered job. */
    void start() {
        while (!buffer.isEmpty()) {
            int current = active.get();
            if (current >= options.concurrency()) {
                return;
            }
            if (active.compareAndSet(current, current + 1)) {
                try {
                    executor.execute(this::runTurn);
                } catch (RejectedExecutionException e) {
                    // The application is stopping: shutdown releases the buffered claims, or their leases expire.
                    active.decrementAndGet();
                    return;
                }
            }
        }
    }

    private void runTurn() {
        long until = System.nanoTime() + TURN_NANOS;
        try {
            List<ClaimedJob> jobs;
            // A runner gives its thread back after a turn and queues itself again, so that tasks waiting for one
            // of the server's executor threads, such as the lease keeper's renewals, get one between turns.
            while (!worker.isStopped() && System.nanoTime() < until && !(jobs = takeForOneCall()).isEmpty()) {
                long start = System.nanoTime();
                calls.run(jobs);
                long each = (System.nanoTime() - start) / jobs.size();
                jobs.forEach(job -> claimSizer.ran(each));
                worker.callEnded();
            }
        } finally {
            active.decrementAndGet();
        }
        if (!worker.isStopped() && !buffer.isEmpty()) {
            start();
        }
    }

    /**
     * Takes the jobs of the next run from the buffer: one, or up to a batch consumer's jobs-per-call, or up to
     * jobs-per-transaction of those waiting. A job whose lease may have run out, or that was claimed ahead under a
     * rate limit and waited past its time to start, is handed back instead.
     */
    private List<ClaimedJob> takeForOneCall() {
        List<ClaimedJob> jobs = new ArrayList<>();
        ClaimBuffer.Waiting waiting;
        while (jobs.size() < options.jobsPerRun() && (waiting = buffer.next()) != null) {
            ClaimedJob job = waiting.job();
            if (waiting.late(System.nanoTime())) {
                giveBack(job, Level.FINE, "was claimed ahead of the runners under the queue's rate limit and found"
                        + " none in time");
            } else if (leaseOutlastsNextRenewal(job)) {
                jobs.add(job);
            } else {
                giveBack(job, Level.INFO, "waited for a runner until its lease nearly ran out");
            }
        }
        return jobs;
    }

    /**
     * Whether the job's lease, as last written, lasts beyond the next renewal. A job claimed before an outage or
     * a long pause may have lost it, and another node may run it already: it must not start here too.
     */
    private boolean leaseOutlastsNextRenewal(ClaimedJob job) {
        Instant expires = running.leaseExpiresAt(job);
        return expires != null && expires.isAfter(leaseClock.now().plus(LeaseRenewal.period(options.lease())));
    }

    /** Hands a claimed job that will not start here back to the queue, if its lease is still this node's. */
    private void giveBack(ClaimedJob job, Level level, String why) {
        buffer.ended(1);
        running.finished(job);
        LOG.log(level, () -> "jobqueue: job " + job.id() + " of queue " + options.queue() + " " + why
                + ", and is handed back rather than started");
        worker.release(job);
    }
}
