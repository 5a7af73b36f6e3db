package dev.jobqueue.internal.dispatch;

import dev.jobqueue.internal.config.QueueOptions;
import dev.jobqueue.internal.consumer.ConsumerMethod;
import dev.jobqueue.internal.store.ClaimStore;
import dev.jobqueue.internal.store.ClaimedJob;
import dev.jobqueue.internal.store.DatabaseReachability;
import dev.jobqueue.internal.store.LeaseStore;
import dev.jobqueue.internal.task.OutageLog;
import dev.jobqueue.internal.time.LeaseClock;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;

/**
 * Claims and runs the jobs of one queue on this node.
 *
 * <p>It polls at the queue's interval and whenever it is woken (a local commit, or room freed while there is a
 * backlog). A poll claims a batch into a local buffer, sized by {@link ClaimSizer} and at most
 * {@code concurrency + 2 * claim size} jobs in flight, so one claim transaction serves many jobs and the next
 * claim overlaps the work on the last. Up to {@code concurrency} runner tasks take jobs from the buffer one after
 * another. Polls of one queue never overlap. Buffered jobs hold leases, which the lease keeper renews like those
 * of running jobs. A non-transactional queue's finished jobs are marked DONE in batches.
 */
final class QueueWorker {

    private static final Logger LOG = Logger.getLogger(QueueWorker.class.getName());

    private static final long RUNNER_TURN_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** Retry wake-ups are rounded up to this, so that many retries due at about one time share one timer. */
    private static final long RETRY_WAKE_TICK_MILLIS = 50;

    private final ConsumerMethod consumer;
    private final QueueOptions options;
    private final ScheduledExecutorService scheduler;
    private final ExecutorService executor;
    private final ClaimStore claims;
    private final LeaseStore leases;
    private final JobExecutor jobExecutor;
    private final RunningJobs running;
    private final Clock clock;
    private final LeaseClock leaseClock;
    private final String node;
    private final DatabaseReachability database;
    private final OutageLog outage;
    /** Whether retries wait for the next regular poll after a failure; not when a test runs the queue by hand. */
    private final boolean holdRetries;

    private final Queue<ClaimedJob> buffer = new ConcurrentLinkedQueue<>();
    private final CompletionBatch succeeded;
    private final ClaimSizer claimSizer;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger runners = new AtomicInteger();
    private final AtomicBoolean drainQueued = new AtomicBoolean();
    private final AtomicBoolean wakeRequested = new AtomicBoolean();
    /** When the timers set by {@link #wakeWhenRetryDue} fire, in epoch milliseconds. */
    private final Set<Long> retryWakes = ConcurrentHashMap.newKeySet();
    /** A retry timer fired: the next claim takes retries even if a later failure holds them. */
    private final AtomicBoolean retryDue = new AtomicBoolean();
    private volatile boolean backlog;
    private volatile boolean stopped;
    private volatile ScheduledFuture<?> timer;
    private volatile Instant lastPoll;
    /**
     * After a consumer fails, regular polls claim no retries until the next one: a failing system is not hammered
     * by retries that other nodes failed. Retries this node failed are claimed when due ({@link #wakeWhenRetryDue}).
     */
    private volatile Instant retriesHeldUntil = Instant.MIN;
    /** After a put found the queue paused, puts write their jobs PENDING without trying to start them here. */
    private volatile Instant noReservationsUntil = Instant.MIN;

    QueueWorker(ConsumerMethod consumer, QueueOptions options, ScheduledExecutorService scheduler,
            ExecutorService executor, ClaimStore claims, LeaseStore leases, JobExecutor jobExecutor,
            RunningJobs running, Clock clock, LeaseClock leaseClock, String node, DatabaseReachability database,
            boolean holdRetries) {
        this.consumer = consumer;
        this.options = options;
        this.scheduler = scheduler;
        this.executor = executor;
        this.claims = claims;
        this.leases = leases;
        this.jobExecutor = jobExecutor;
        this.running = running;
        this.clock = clock;
        this.leaseClock = leaseClock;
        this.node = node;
        this.database = database;
        this.holdRetries = holdRetries;
        this.succeeded = new CompletionBatch(scheduler, this::recordSucceeded);
        this.claimSizer = new ClaimSizer(options.concurrency(), options.batchSize());
        this.outage = new OutageLog(LOG, "the poller of queue " + options.queue(),
                "tries again every " + options.pollInterval());
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

    /** Takes the claimed jobs no runner has started; after {@link #stop()} nobody will. */
    List<ClaimedJob> takeBuffered() {
        List<ClaimedJob> taken = new ArrayList<>();
        ClaimedJob job;
        while ((job = buffer.poll()) != null) {
            taken.add(job);
            inFlight.decrementAndGet();
        }
        return taken;
    }

    /** Marks DONE now the jobs whose non-transactional consumer returned, rather than within a few milliseconds. */
    void flushSucceeded() {
        succeeded.flush();
    }

    /** When this worker last polled, or tried to; null once stopped. */
    Instant lastPoll() {
        return stopped ? null : lastPoll;
    }

    QueueOptions options() {
        return options;
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

    /**
     * Polls when a job this node just failed is due again, instead of at the first regular poll after that: a
     * retry starts when its backoff ends, give or take {@value #RETRY_WAKE_TICK_MILLIS} ms, and that claim takes
     * retries even while a later failure holds them back from regular polls.
     */
    void wakeWhenRetryDue(Instant runAt) {
        long now = clock.millis();
        long tick = Math.floorDiv(runAt.toEpochMilli() + RETRY_WAKE_TICK_MILLIS - 1, RETRY_WAKE_TICK_MILLIS)
                * RETRY_WAKE_TICK_MILLIS;
        if (stopped || !retryWakes.add(tick)) {
            return;
        }
        try {
            scheduler.schedule(() -> {
                retryWakes.remove(tick);
                retryDue.set(true);
                wake();
            }, Math.max(0, tick - now), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            retryWakes.remove(tick);
        }
    }

    /**
     * Holds a runner for a job being put on this node, if the queue has nothing else to do here: no job waits in
     * the buffer, the last claim found no backlog, and fewer than {@code concurrency} jobs are in flight. Empty
     * otherwise; then the job is put PENDING and claimed as usual.
     */
    Optional<LocalStart> reserve() {
        if (clock.instant().isBefore(noReservationsUntil)) {
            return Optional.empty();
        }
        while (!stopped && !backlog && buffer.isEmpty()) {
            int current = inFlight.get();
            if (current >= options.concurrency()) {
                return Optional.empty();
            }
            if (inFlight.compareAndSet(current, current + 1)) {
                return Optional.of(new LocalStart(this, UUID.randomUUID().toString(), clock.instant(),
                        leaseClock.now().plus(options.lease())));
            }
        }
        return Optional.empty();
    }

    /**
     * Gives back a runner held by {@link #reserve()}. After a put found the queue paused, none is held for a poll
     * interval.
     */
    void cancelReservation(boolean queuePaused) {
        if (queuePaused) {
            noReservationsUntil = clock.instant().plus(options.pollInterval());
        }
        inFlight.decrementAndGet();
    }

    /**
     * Runs a job written RUNNING by a put that held a runner with {@link #reserve()}. The job is released for a
     * prompt claim instead if this worker stopped meanwhile, or if the put's transaction used up half of the
     * lease, which the lease keeper might then not renew before it expires.
     */
    void startReserved(ClaimedJob job, Instant leaseExpiresAt) {
        Instant renewBy = leaseExpiresAt.minus(options.lease().dividedBy(2));
        if (stopped || leaseClock.now().isAfter(renewBy)) {
            inFlight.decrementAndGet();
            releaseLater(job);
            return;
        }
        running.claimed(job, leaseExpiresAt);
        buffer.add(job);
        startRunners();
    }

    private void releaseLater(ClaimedJob job) {
        try {
            executor.execute(() -> release(job));
        } catch (RejectedExecutionException e) {
            LOG.info(() -> "jobqueue: job " + job.id() + " of queue " + options.queue() + " was put as this node"
                    + " stopped; it runs once its lease expires");
        }
    }

    private void release(ClaimedJob job) {
        try {
            leases.release(List.of(job));
            wake();
        } catch (RuntimeException e) {
            LOG.warning("jobqueue: cannot release job " + job.id() + " of queue " + options.queue()
                    + " for a claim; it runs once its lease expires: " + e);
        }
    }

    /**
     * How many claimed jobs may be in flight: one call's worth running per runner, and two batches waiting, so
     * that the next claim runs while the runners still have a batch to work on.
     */
    private int capacity(int claimSize) {
        return options.concurrency() * options.jobsPerCall() + 2 * claimSize;
    }

    private void drain() {
        lastPoll = clock.instant();
        try {
            while (!stopped && wakeRequested.getAndSet(false)) {
                int claimSize = claimSizer.claimSize();
                int wanted = Math.min(claimSize, capacity(claimSize) - inFlight.get());
                if (wanted <= 0) {
                    backlog = true;
                    return;
                }
                Instant leaseExpiresAt = leaseClock.now().plus(options.lease());
                List<ClaimedJob> jobs = claim(wanted, leaseExpiresAt);
                backlog = jobs.size() == wanted;
                inFlight.addAndGet(jobs.size());
                jobs.forEach(job -> running.claimed(job, leaseExpiresAt));
                buffer.addAll(jobs);
                startRunners();
            }
        } finally {
            drainQueued.set(false);
            if (wakeRequested.get()) {
                wake();
            }
        }
    }

    private List<ClaimedJob> claim(int wanted, Instant leaseExpiresAt) {
        if (!outage.mayTry(database)) {
            return List.of();
        }
        Instant now = clock.instant();
        boolean retryTimerFired = retryDue.getAndSet(false);
        try {
            boolean includeRetries = retryTimerFired || !now.isBefore(retriesHeldUntil);
            List<ClaimedJob> jobs = claims.claim(options.queue(), wanted, UUID.randomUUID().toString(), node, now,
                    leaseExpiresAt, includeRetries);
            outage.succeeded();
            if (retryTimerFired && jobs.size() == wanted) {
                // A full claim may have left due retries behind: the next claim takes retries too.
                retryDue.set(true);
            }
            return jobs;
        } catch (RuntimeException e) {
            if (retryTimerFired) {
                retryDue.set(true);
            }
            outage.failed(e);
            return List.of();
        }
    }

    /** Starts runner tasks until there are {@code concurrency} of them or one per buffered job. */
    private void startRunners() {
        while (!buffer.isEmpty()) {
            int current = runners.get();
            if (current >= options.concurrency()) {
                return;
            }
            if (runners.compareAndSet(current, current + 1)) {
                try {
                    executor.execute(this::runBuffered);
                } catch (RejectedExecutionException e) {
                    // The application is stopping: shutdown releases the buffered claims, or their leases expire.
                    runners.decrementAndGet();
                    return;
                }
            }
        }
    }

    private void runBuffered() {
        long until = System.nanoTime() + RUNNER_TURN_NANOS;
        try {
            List<ClaimedJob> jobs;
            // A runner gives its thread back after a turn and queues itself again, so that tasks waiting for one
            // of the server's executor threads, such as the lease keeper's renewals, get one between turns.
            while (!stopped && System.nanoTime() < until && !(jobs = takeForOneCall()).isEmpty()) {
                long start = System.nanoTime();
                if (consumer.batch()) {
                    runTogether(jobs);
                } else {
                    run(jobs.get(0));
                }
                long each = (System.nanoTime() - start) / jobs.size();
                jobs.forEach(job -> claimSizer.ran(each));
                int claimSize = claimSizer.claimSize();
                if (backlog && inFlight.get() <= capacity(claimSize) - claimSize) {
                    wake();
                }
            }
        } finally {
            runners.decrementAndGet();
        }
        if (!stopped && !buffer.isEmpty()) {
            startRunners();
        }
    }

    /**
     * Takes the jobs of the next call from the buffer: one, or for a batch consumer up to jobs-per-call. A job
     * whose lease may have run out is handed back instead.
     */
    private List<ClaimedJob> takeForOneCall() {
        List<ClaimedJob> jobs = new ArrayList<>();
        ClaimedJob job;
        while (jobs.size() < options.jobsPerCall() && (job = buffer.poll()) != null) {
            if (leaseOutlastsNextRenewal(job)) {
                jobs.add(job);
            } else {
                giveBack(job);
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
    private void giveBack(ClaimedJob job) {
        inFlight.decrementAndGet();
        running.finished(job);
        LOG.info(() -> "jobqueue: job " + job.id() + " of queue " + options.queue() + " waited for a runner"
                + " until its lease nearly ran out, and is handed back rather than started");
        release(job);
    }

    private void run(ClaimedJob job) {
        running.started(job, clock.instant());
        Outcome outcome = null;
        try {
            outcome = jobExecutor.execute(job, consumer, options);
            if (outcome.isFailure() && holdRetries) {
                retriesHeldUntil = clock.instant().plus(options.pollInterval());
            }
        } finally {
            inFlight.decrementAndGet();
            if (outcome == Outcome.SUCCEEDED) {
                running.completing(job);
                succeeded.add(job);
            } else {
                running.finished(job);
            }
        }
        if (job.orderingKey() != null) {
            // The next job of its key may have been passed over at the last claim: claim it now, not at the next poll.
            wake();
        }
    }

    /** Runs the jobs in one call of a batch consumer, which is always transactional. */
    private void runTogether(List<ClaimedJob> jobs) {
        Instant now = clock.instant();
        jobs.forEach(job -> running.started(job, now));
        try {
            List<Outcome> outcomes = jobExecutor.executeTogether(jobs, consumer, options);
            if (holdRetries && outcomes.stream().anyMatch(Outcome::isFailure)) {
                retriesHeldUntil = clock.instant().plus(options.pollInterval());
            }
        } finally {
            inFlight.addAndGet(-jobs.size());
            jobs.forEach(running::finished);
        }
        if (jobs.stream().anyMatch(job -> job.orderingKey() != null)) {
            wake();
        }
    }

    private void recordSucceeded(List<ClaimedJob> jobs) {
        try {
            jobExecutor.recordSucceeded(jobs, options);
        } finally {
            jobs.forEach(running::finished);
        }
    }
}
