package dev.jobqueue.internal.dispatch;

import dev.jobqueue.internal.config.QueueOptions;
import dev.jobqueue.internal.config.RateLimit;
import dev.jobqueue.internal.consumer.ConsumerMethod;
import dev.jobqueue.internal.metrics.JobMetrics;
import dev.jobqueue.internal.store.ClaimAhead;
import dev.jobqueue.internal.store.ClaimStore;
import dev.jobqueue.internal.store.ClaimedJob;
import dev.jobqueue.internal.store.DatabaseReachability;
import dev.jobqueue.internal.store.LeaseStore;
import dev.jobqueue.internal.task.OutageLog;
import dev.jobqueue.internal.time.LeaseClock;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.logging.Logger;

/**
 * Claims the jobs of one queue on this node, and holds runners for jobs put here.
 *
 * <p>It polls at the queue's interval and whenever it is woken (a local commit, or room freed while there is a
 * backlog), in a {@link PollLoop}. A poll claims a batch into a local {@link ClaimBuffer}, sized by
 * {@link ClaimSizer} and at most {@code concurrency + 2 * claim size} jobs in flight, so one claim transaction
 * serves many jobs and the next claim overlaps the work on the last. Up to {@code concurrency} {@link Runners}
 * take jobs from the buffer one call after another. Buffered jobs hold leases, which the lease keeper renews
 * like those of running jobs. When the claims take retries is the {@link RetryTimer}'s to say, how they keep to
 * the queue's limits the {@link Claimer}'s.
 */
final class QueueWorker {

    private static final Logger LOG = Logger.getLogger(QueueWorker.class.getName());

    private final QueueOptions options;
    private final RunningJobs running;
    private final Clock clock;
    private final LeaseClock leaseClock;

    private final ClaimBuffer buffer = new ClaimBuffer();
    private final PollLoop polls;
    private final ClaimSizer claimSizer;
    private final RetryTimer retries;
    private final HeldWake heldWake;
    private final Handback handback;
    private final Claimer claimer;
    private final CallRunner calls;
    private final Runners runners;
    private final Reservations reservations;
    private volatile boolean backlog;
    /**
     * After this node's consumer told the queue to back off, no job put here starts at once until then. Claims read
     * the backoff from the database, so that an admin's resume on any node ends it there.
     */
    private volatile Instant backoffUntil = Instant.MIN;

    /**
     * @param automatic whether jobs run on their own: then retries wait for the next regular poll after a failure,
     *                  and claims start where a {@link ClaimCursor} says; not when a test runs the queue by hand
     */
    QueueWorker(ConsumerMethod consumer, QueueOptions options, ScheduledExecutorService scheduler,
            ExecutorService executor, ClaimStore claims, LeaseStore leases, JobExecutor jobExecutor,
            RunningJobs running, Clock clock, LeaseClock leaseClock, String node, DatabaseReachability database,
            JobMetrics metrics, UnsettledLeases unsettled, boolean automatic) {
        this.options = options;
        this.running = running;
        this.clock = clock;
        this.leaseClock = leaseClock;
        OutageLog outage = new OutageLog(LOG, "the poller of queue " + options.queue(),
                "tries again every " + options.pollInterval());
        this.polls = new PollLoop(scheduler, clock, options.pollInterval(), this::claimOnce);
        this.claimSizer = new ClaimSizer(options.concurrency(), options.batchSize());
        this.retries = new RetryTimer(scheduler, clock, options.pollInterval(), automatic, this::wake);
        this.heldWake = new HeldWake(scheduler, leaseClock, this::wake);
        this.handback = new Handback(options.queue(), options.lease(), leases, unsettled, executor, outage,
                this::rewind);
        this.claimer = new Claimer(options, claims, clock, leaseClock, node, database, outage, metrics, retries,
                heldWake, automatic ? ClaimCursor.measuring(System::nanoTime) : ClaimCursor.alwaysFromFirst(),
                unsettled);
        this.calls = new CallRunner(consumer, options, jobExecutor, running, clock, scheduler, buffer, retries,
                this::rewind);
        this.runners = new Runners(this, options, executor, buffer, calls, claimSizer, running, leaseClock);
        this.reservations = new Reservations(options, polls, buffer, running, runners, handback, clock, leaseClock);
    }

    void start() {
        polls.start();
    }

    void stop() {
        polls.stop();
    }

    boolean isStopped() {
        return polls.isStopped();
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
        return polls.lastPoll();
    }

    QueueOptions options() {
        return options;
    }

    /** Asks for a poll soon. Cheap, and safe to call from any thread, including transaction completion. */
    void wake() {
        polls.wake();
    }

    /**
     * Polls soon, reading the queue from its first due job: jobs due before the last claim's may have become
     * claimable (a dependency released, a lease rescued, a job handed back, the next job of an ordering key).
     */
    void rewind() {
        claimer.rewind();
        polls.wake();
    }

    /** Polls when a job this node just failed is due again; see {@link RetryTimer}. */
    void wakeWhenRetryDue(Instant runAt) {
        if (!polls.isStopped()) {
            retries.wakeWhenDue(runAt);
        }
    }

    /**
     * A runner finished a call: polls again if the last claim left a backlog and a claim's worth of room is free;
     * under limits, any room, since such a claim takes no more than can start.
     */
    void callEnded() {
        int claimSize = claimSizer.claimSize();
        int worthClaiming = claimer.limited() ? Math.max(1, (capacity(claimSize) - runnable()) / 2) : claimSize;
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
            handback.releaseUnstarted(waiting);
            waiting.forEach(running::finished);
        }
        heldWake.wakeAt(until);
    }

    /** An admin resumed the queue: jobs put here may start at once again. */
    void endBackoff() {
        backoffUntil = Instant.MIN;
    }

    /**
     * Holds a runner for a job being put on this node, if the queue has nothing else to do here: no job waits in
     * the buffer, the last claim found no backlog, and fewer than {@code concurrency} jobs are in flight. Empty
     * otherwise; then the job is put PENDING and claimed as usual.
     */
    Optional<LocalStart> reserve() {
        Instant now = clock.instant();
        if (claimer.limited() || now.isBefore(backoffUntil) || polls.isStopped() || backlog) {
            return Optional.empty();
        }
        return reservations.reserve(now);
    }

    /** Releases a claimed job that will not run here, fenced by its lease, and polls so that it runs soon. */
    void release(ClaimedJob job) {
        handback.release(job);
    }

    /**
     * How many claimed jobs may be in flight: one run's worth (a call, or a transaction's calls) per runner, and two
     * batches waiting, so that the next claim runs while the runners still have a batch to work on. Under limits
     * only what {@link #aheadUnderLimits()} allows waits.
     */
    private int capacity(int claimSize) {
        return runnable() + (claimer.limited() ? Math.min(2 * claimSize, aheadUnderLimits()) : 2 * claimSize);
    }

    /**
     * How many jobs may wait for a runner under limits. None under {@code max-running}, where a job counts against
     * the limit from its claim; under a rate limit alone, what the runners start within the longest a job claimed
     * ahead may wait ({@link ClaimAhead}).
     */
    private int aheadUnderLimits() {
        RateLimit rate = options.limits().rate();
        if (rate == null || options.limits().maxRunning() > 0) {
            return 0;
        }
        return Math.max(0, claimSizer.startableWithin(ClaimAhead.longestWait(rate)) - runnable());
    }

    private int runnable() {
        return options.concurrency() * options.jobsPerRun();
    }

    /** One claim of a round of polling, as much as there is room for; false when the round should claim no more. */
    private boolean claimOnce() {
        int claimSize = claimSizer.claimSize();
        int wanted = Math.min(claimSize, capacity(claimSize) - buffer.inFlight());
        if (wanted <= 0) {
            backlog = true;
            return false;
        }
        int inFlight = buffer.inFlight();
        ClaimAhead ahead = new ClaimAhead(Math.max(0, runnable() - inFlight),
                claimSizer.timeToStart(inFlight + wanted));
        Instant leaseExpiresAt = leaseClock.now().plus(options.lease());
        long claimedAt = System.nanoTime();
        Claimer.Claimed claimed = claimer.claim(wanted, ahead, leaseExpiresAt);
        List<ClaimedJob> jobs = claimed.jobs();
        backlog = jobs.size() == wanted || claimed.untilJobsEnd();
        jobs.forEach(job -> running.claimed(job, leaseExpiresAt));
        buffer.addClaimed(jobs, ahead.atOnce(), claimed.startWithin(), claimedAt);
        runners.start();
        return true;
    }
}
