package dev.jobqueue.internal.dispatch;

import dev.jobqueue.internal.config.QueueOptions;
import dev.jobqueue.internal.discovery.ConsumerMethod;
import dev.jobqueue.internal.store.ClaimedJob;
import dev.jobqueue.internal.store.JobStore;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;

/**
 * Claims and runs the jobs of one queue on this node. It polls at the queue's interval and whenever it is
 * woken (a local commit, a finished job while there is a backlog), claims at most as many jobs as it has free
 * slots, and hands each to the executor. Polls of one queue never overlap.
 */
final class QueueWorker {

    private static final Logger LOG = Logger.getLogger(QueueWorker.class.getName());

    private final ConsumerMethod consumer;
    private final QueueOptions options;
    private final ScheduledExecutorService scheduler;
    private final ExecutorService executor;
    private final JobStore store;
    private final JobExecutor jobExecutor;
    private final RunningJobs running;
    private final Clock clock;

    private final Semaphore slots;
    private final AtomicBoolean drainQueued = new AtomicBoolean();
    private final AtomicBoolean wakeRequested = new AtomicBoolean();
    private volatile boolean backlog;
    private volatile boolean stopped;
    private volatile boolean claimFailing;
    private volatile ScheduledFuture<?> timer;
    private volatile Instant lastPoll;
    /** After a consumer fails, retries wait until the next regular poll: a failing system is not hammered. */
    private volatile Instant retriesHeldUntil = Instant.MIN;

    QueueWorker(ConsumerMethod consumer, QueueOptions options, ScheduledExecutorService scheduler,
            ExecutorService executor, JobStore store, JobExecutor jobExecutor, RunningJobs running, Clock clock) {
        this.consumer = consumer;
        this.options = options;
        this.scheduler = scheduler;
        this.executor = executor;
        this.store = store;
        this.jobExecutor = jobExecutor;
        this.running = running;
        this.clock = clock;
        this.slots = new Semaphore(options.concurrency());
    }

    void start() {
        stopped = false;
        lastPoll = clock.instant();
        long interval = options.pollInterval().toMillis();
        timer = scheduler.scheduleWithFixedDelay(this::wake, 0, interval, TimeUnit.MILLISECONDS);
    }

    void stop() {
        stopped = true;
        ScheduledFuture<?> current = timer;
        if (current != null) {
            current.cancel(false);
        }
    }

    /** Asks for a poll soon. Cheap, and safe to call from any thread, including transaction completion. */
    void wake() {
        if (stopped) {
            return;
        }
        wakeRequested.set(true);
        if (drainQueued.compareAndSet(false, true)) {
            try {
                scheduler.execute(this::drain);
            } catch (RejectedExecutionException e) {
                drainQueued.set(false);
            }
        }
    }

    /** When this worker last polled, or tried to; null once stopped. */
    Instant lastPoll() {
        return stopped ? null : lastPoll;
    }

    QueueOptions options() {
        return options;
    }

    private void drain() {
        lastPoll = clock.instant();
        try {
            while (!stopped && wakeRequested.getAndSet(false)) {
                int wanted = Math.min(slots.availablePermits(), options.batchSize());
                if (wanted == 0) {
                    backlog = true;
                    return;
                }
                List<ClaimedJob> jobs = claim(wanted);
                backlog = jobs.size() == wanted;
                if (backlog) {
                    wakeRequested.set(true);
                }
                jobs.forEach(this::dispatch);
            }
        } finally {
            drainQueued.set(false);
            if (wakeRequested.get()) {
                wake();
            }
        }
    }

    private List<ClaimedJob> claim(int wanted) {
        Instant now = clock.instant();
        try {
            boolean includeRetries = !now.isBefore(retriesHeldUntil);
            List<ClaimedJob> jobs = store.claim(options.queue(), wanted, UUID.randomUUID().toString(), now,
                    now.plus(options.lease()), includeRetries);
            if (claimFailing) {
                claimFailing = false;
                LOG.info("jobqueue: the poller of queue " + options.queue() + " can claim jobs again");
            }
            return jobs;
        } catch (RuntimeException e) {
            if (!claimFailing) {
                claimFailing = true;
                LOG.warning("jobqueue: the poller of queue " + options.queue()
                        + " cannot claim jobs and tries again every " + options.pollInterval() + ": " + e);
            }
            return List.of();
        }
    }

    private void dispatch(ClaimedJob job) {
        slots.acquireUninterruptibly();
        running.claimed(job);
        try {
            executor.execute(() -> run(job));
        } catch (RejectedExecutionException e) {
            // The application is stopping: shutdown releases the claim, or the lease expires.
            slots.release();
        }
    }

    private void run(ClaimedJob job) {
        running.started(job, clock.instant());
        try {
            Outcome outcome = jobExecutor.execute(job, consumer, options);
            if (outcome.isFailure()) {
                retriesHeldUntil = clock.instant().plus(options.pollInterval());
            }
        } finally {
            running.finished(job);
            slots.release();
            if (backlog) {
                wake();
            }
        }
    }
}
