package dev.jobqueue.internal.dispatch;

import dev.jobqueue.internal.config.QueueOptions;
import dev.jobqueue.internal.consumer.ConsumerMethod;
import dev.jobqueue.internal.metrics.JobMetrics;
import dev.jobqueue.internal.store.ClaimStore;
import dev.jobqueue.internal.store.ClaimedJob;
import dev.jobqueue.internal.store.DatabaseReachability;
import dev.jobqueue.internal.store.LimitedClaim;
import dev.jobqueue.internal.store.LeaseStore;
import dev.jobqueue.internal.task.OutageLog;
import dev.jobqueue.internal.time.LeaseClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;

/**
 * Claims the jobs of one queue on this node, and holds runners for jobs put here.
 *
 * <p>It polls at the queue's interval and whenever it is woken (a local commit, or room freed while there is a
 * backlog). A poll claims a batch into a local {@link ClaimBuffer}, sized by {@link ClaimSizer} and at most
 * {@code concurrency + 2 * claim size} jobs in flight, so one claim transaction serves many jobs and the next
 * claim overlaps the work on the last. Up to {@code concurrency} {@link Runners} take jobs from the buffer one
 * call after another. Polls of one queue never overlap. Buffered jobs hold leases, which the lease keeper renews
 * like those of running jobs. When the claims take retries is the {@link RetryTimer}'s to say.
 */
final class QueueWorker {

    private static final Logger LOG = Logger.getLogger(QueueWorker.class.getName());
    /** How often a worker without configured limits asks whether an admin set one. */
    static final Duration LIMITS_CHECK = Duration.ofSeconds(5);

    private final QueueOptions options;
    private final ScheduledExecutorService scheduler;
    private final ExecutorService executor;
    private final ClaimStore claims;
    private final LeaseStore leases;
    private final RunningJobs running;
    private final Clock clock;
    private final LeaseClock leaseClock;
    private final String node;
    private final DatabaseReachability database;
    private final OutageLog outage;
    private final JobMetrics metrics;

    private final ClaimBuffer buffer = new ClaimBuffer();
    private final ClaimSizer claimSizer;
    private final RetryTimer retries;
    private final CallRunner calls;
    private final Runners runners;
    private final AtomicBoolean drainQueued = new AtomicBoolean();
    private final AtomicBoolean wakeRequested = new AtomicBoolean();
    private volatile boolean backlog;
    private volatile boolean stopped;
    private volatile ScheduledFuture<?> timer;
    private volatile Instant lastPoll;
    /** Set while a round of polling runs, which may wait on a database that hangs. */
    private volatile boolean polling;
    /** After a put found the queue paused, puts write their jobs PENDING without trying to start them here. */
    private volatile Instant noReservationsUntil = Instant.MIN;
    /**
     * Whether claims go through the queue's cluster-wide limits: configured here, or set by an admin. A worker
     * whose queue has none here asks every {@link #LIMITS_CHECK} whether an admin set one.
     */
    private volatile boolean limited;
    private volatile Instant nextLimitsCheck = Instant.MIN;
    /** After this node's consumer told the queue to back off, no claim until then. */
    private volatile Instant backoffUntil = Instant.MIN;
    /** The wake-up at the time a limit or a backoff lets the next claim take jobs. */
    private ScheduledFuture<?> heldWake;
    private Instant heldWakeAt;

    /**
     * @param holdRetries whether retries wait for the next regular poll after a failure; not when a test runs
     *                    the queue by hand
     */
    QueueWorker(ConsumerMethod consumer, QueueOptions options, ScheduledExecutorService scheduler,
            ExecutorService executor, ClaimStore claims, LeaseStore leases, JobExecutor jobExecutor,
            RunningJobs running, Clock clock, LeaseClock leaseClock, String node, DatabaseReachability database,
            JobMetrics metrics, boolean holdRetries) {
        this.options = options;
        this.scheduler = scheduler;
        this.executor = executor;
        this.claims = claims;
        this.leases = leases;
        this.running = running;
        this.clock = clock;
        this.leaseClock = leaseClock;
        this.node = node;
        this.database = database;
        this.metrics = metrics;
        this.limited = options.limits().any();
        this.outage = new OutageLog(LOG, "the poller of queue " + options.queue(),
                "tries again every " + options.pollInterval());
        this.claimSizer = new ClaimSizer(options.concurrency(), options.batchSize());
        this.retries = new RetryTimer(scheduler, clock, options.pollInterval(), holdRetries, this::wake);
        this.calls = new CallRunner(consumer, options, jobExecutor, running, clock, scheduler, buffer, retries,
                this::wake);
        this.runners = new Runners(this, options, executor, buffer, calls, claimSizer, running, leaseClock);
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

    boolean isStopped() {
        return stopped;
    }

    /** Takes the claimed jobs no runner has started; after {@link #stop()} nobody will. */
    List<ClaimedJob> takeBuffered() {
        return buffer.takeAll();
    }

    /** Marks DONE now the jobs whose non-transactional consumer returned, rather than within a few milliseconds. */
    void flushSucceeded() {
        calls.flushSucceeded();
    }

    /**
     * When this worker last polled, or tried to; now while a round runs, since a round that waits on a database
     * that hangs is the database's failure, for readiness to report, not this worker's; null once stopped.
     */
    Instant lastPoll() {
        if (stopped) {
            return null;
        }
        return polling ? clock.instant() : lastPoll;
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

    /** Polls when a job this node just failed is due again; see {@link RetryTimer}. */
    void wakeWhenRetryDue(Instant runAt) {
        if (!stopped) {
            retries.wakeWhenDue(runAt);
        }
    }

    /**
     * A runner finished a call: polls again if the last claim left a backlog and a claim's worth of room is free;
     * under limits, any room, since such a claim takes no more than can start.
     */
    void callEnded() {
        int claimSize = claimSizer.claimSize();
        int worthClaiming = limited ? 1 : claimSize;
        if (backlog && buffer.inFlight() <= capacity(claimSize) - worthClaiming) {
            wake();
        }
    }

    /**
     * This node's consumer told the queue to back off until {@code until} ({@code QueueBackoffException}): the
     * jobs claimed here and not started are handed back, and no claim runs here until then.
     */
    void backOff(Instant until) {
        if (until.isAfter(backoffUntil)) {
            backoffUntil = until;
        }
        List<ClaimedJob> waiting = buffer.takeAll();
        if (!waiting.isEmpty()) {
            try {
                leases.release(waiting);
            } catch (RuntimeException e) {
                // They run once their leases expire.
                outage.failed(e);
            }
            waiting.forEach(running::finished);
        }
        wakeAt(until);
    }

    /**
     * Holds a runner for a job being put on this node, if the queue has nothing else to do here: no job waits in
     * the buffer, the last claim found no backlog, and fewer than {@code concurrency} jobs are in flight. Empty
     * otherwise; then the job is put PENDING and claimed as usual.
     */
    Optional<LocalStart> reserve() {
        Instant now = clock.instant();
        if (limited || now.isBefore(noReservationsUntil) || now.isBefore(backoffUntil) || stopped || backlog
                || !buffer.isEmpty()
                || !buffer.holdBelow(options.concurrency())) {
            return Optional.empty();
        }
        return Optional.of(new LocalStart(this, UUID.randomUUID().toString(), clock.instant(),
                leaseClock.now().plus(options.lease())));
    }

    /**
     * Gives back a runner held by {@link #reserve()}. After a put found the queue paused, none is held for a poll
     * interval.
     */
    void cancelReservation(boolean queuePaused) {
        if (queuePaused) {
            noReservationsUntil = clock.instant().plus(options.pollInterval());
        }
        buffer.ended(1);
    }

    /**
     * Runs a job written RUNNING by a put that held a runner with {@link #reserve()}. The job is released for a
     * prompt claim instead if this worker stopped meanwhile, or if the put's transaction used up half of the
     * lease, which the lease keeper might then not renew before it expires.
     */
    void startReserved(ClaimedJob job, Instant leaseExpiresAt) {
        Instant renewBy = leaseExpiresAt.minus(options.lease().dividedBy(2));
        if (stopped || leaseClock.now().isAfter(renewBy)) {
            buffer.ended(1);
            releaseLater(job);
            return;
        }
        running.claimed(job, leaseExpiresAt);
        buffer.addHeld(job);
        runners.start();
    }

    /** Releases a claimed job that will not run here, fenced by its lease, and polls so that it runs soon. */
    void release(ClaimedJob job) {
        try {
            leases.release(List.of(job));
            wake();
        } catch (RuntimeException e) {
            // The database is out: the poller's record logs it once for the outage, not once per job.
            outage.failed(e);
            LOG.fine(() -> "jobqueue: cannot release job " + job.id() + " of queue " + options.queue()
                    + " for a claim; it runs once its lease expires: " + e);
        }
    }

    private void releaseLater(ClaimedJob job) {
        try {
            executor.execute(() -> release(job));
        } catch (RejectedExecutionException e) {
            LOG.info(() -> "jobqueue: job " + job.id() + " of queue " + options.queue() + " was put as this node"
                    + " stopped; it runs once its lease expires");
        }
    }

    /**
     * How many claimed jobs may be in flight: one run's worth (a call, or a transaction's calls) per runner, and two batches waiting, so
     * that the next claim runs while the runners still have a batch to work on. Under limits none wait: a job
     * counts against them from its claim, so a claim takes only what starts at once.
     */
    private int capacity(int claimSize) {
        int runnable = options.concurrency() * options.jobsPerRun();
        return limited ? runnable : runnable + 2 * claimSize;
    }

    private void drain() {
        lastPoll = clock.instant();
        polling = true;
        try {
            while (!stopped && wakeRequested.getAndSet(false)) {
                int claimSize = claimSizer.claimSize();
                int wanted = Math.min(claimSize, capacity(claimSize) - buffer.inFlight());
                if (wanted <= 0) {
                    backlog = true;
                    return;
                }
                if (clock.instant().isBefore(backoffUntil)) {
                    return;
                }
                Instant leaseExpiresAt = leaseClock.now().plus(options.lease());
                Claimed claimed = claim(wanted, leaseExpiresAt);
                List<ClaimedJob> jobs = claimed.jobs();
                backlog = jobs.size() == wanted || claimed.untilJobsEnd();
                jobs.forEach(job -> running.claimed(job, leaseExpiresAt));
                buffer.addClaimed(jobs);
                runners.start();
            }
        } finally {
            polling = false;
            lastPoll = clock.instant();
            drainQueued.set(false);
            if (wakeRequested.get()) {
                wake();
            }
        }
    }

    /**
     * What a claim took, and whether the queue's limits held jobs back until some of its RUNNING jobs end
     * ({@code max-running}): then a call that ends here polls again. A claim that the rate limit held back polls
     * when the window has room, not before, so that claims bound to find none do not queue for the row's lock.
     */
    private record Claimed(List<ClaimedJob> jobs, boolean untilJobsEnd) {
        static final Claimed NOTHING = new Claimed(List.of(), false);
    }

    private Claimed claim(int wanted, Instant leaseExpiresAt) {
        if (!outage.mayTry(database)) {
            return Claimed.NOTHING;
        }
        RetryTimer.Turn turn = retries.nextClaim();
        Instant now = clock.instant();
        try {
            Claimed claimed = limited || checkLimitsNow(now) ? claimWithinLimits(wanted, now, leaseExpiresAt, turn)
                    : new Claimed(claims.claim(options.queue(), wanted, UUID.randomUUID().toString(), node, now,
                            leaseExpiresAt, turn.includeRetries()), false);
            outage.succeeded();
            if (claimed.jobs().size() == wanted) {
                // A full claim may have left due retries behind: the next claim takes retries too.
                retries.mayHaveLeftRetries(turn);
            }
            return claimed;
        } catch (RuntimeException e) {
            retries.mayHaveLeftRetries(turn);
            outage.failed(e);
            return Claimed.NOTHING;
        }
    }

    /** Whether it is time for a worker without limits to ask, with a claim under limits, whether an admin set one. */
    private boolean checkLimitsNow(Instant now) {
        if (now.isBefore(nextLimitsCheck)) {
            return false;
        }
        nextLimitsCheck = now.plus(LIMITS_CHECK);
        return true;
    }

    private Claimed claimWithinLimits(int wanted, Instant now, Instant leaseExpiresAt, RetryTimer.Turn turn) {
        LimitedClaim claim = claims.claimWithinLimits(options.queue(), options.limits(), wanted,
                UUID.randomUUID().toString(), node, now, leaseClock.now(), leaseExpiresAt, turn.includeRetries());
        limited = claim.limits().any();
        if (claim.held()) {
            metrics.heldBack(options.queue(), switch (claim.heldBy()) {
                case RATE_LIMIT -> JobMetrics.Hold.RATE_LIMIT;
                case MAX_RUNNING -> JobMetrics.Hold.MAX_RUNNING;
                default -> JobMetrics.Hold.PAUSE;
            });
            if (claim.retryAt() != null) {
                wakeAt(claim.retryAt());
            }
        }
        return new Claimed(claim.jobs(), claim.heldBy() == LimitedClaim.HeldBy.MAX_RUNNING);
    }

    /**
     * Polls at {@code when} (the database's time, as limits are measured; this node's clock is near enough for
     * a wake-up), unless an earlier wake-up of this kind is due first.
     */
    private synchronized void wakeAt(Instant when) {
        Instant now = leaseClock.now();
        if (heldWake != null && !heldWake.isDone() && !heldWakeAt.isAfter(when)) {
            return;
        }
        if (heldWake != null) {
            heldWake.cancel(false);
        }
        long delay = Math.max(1, Duration.between(now, when).toMillis());
        heldWakeAt = when;
        try {
            heldWake = scheduler.schedule(this::wake, delay, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            heldWake = null;
        }
    }
}
