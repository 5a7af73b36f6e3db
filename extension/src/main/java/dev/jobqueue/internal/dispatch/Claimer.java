package dev.jobqueue.internal.dispatch;

import dev.jobqueue.internal.config.QueueOptions;
import dev.jobqueue.internal.metrics.JobMetrics;
import dev.jobqueue.internal.store.ClaimAhead;
import dev.jobqueue.internal.store.ClaimStart;
import dev.jobqueue.internal.store.ClaimStore;
import dev.jobqueue.internal.store.ClaimedJob;
import dev.jobqueue.internal.store.ConnectionLoss;
import dev.jobqueue.internal.store.DatabaseReachability;
import dev.jobqueue.internal.store.LimitedClaim;
import dev.jobqueue.internal.task.OutageLog;
import dev.jobqueue.internal.time.LeaseClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * Takes one claim of a queue's jobs for its worker: a plain one, or one within the queue's cluster-wide limits
 * if it has any, starting where its {@link ClaimCursor} says. A claim the limits held back wakes the worker when
 * they let the next one take jobs. A claim that lost its connection may have committed all the same: its lease
 * token goes to the {@link UnsettledLeases}, which hand back whatever it took.
 */
final class Claimer {

    /** How often a worker without configured limits asks whether an admin set one. */
    static final Duration LIMITS_CHECK = Duration.ofSeconds(5);

    /**
     * What a claim took, and whether the queue's limits held jobs back until some of its RUNNING jobs end
     * ({@code max-running}): then a call that ends here polls again. A claim that the rate limit held back polls
     * when the window has room, not before, so that claims bound to find none do not queue for the row's lock.
     * The jobs beyond those runners were free for must start within {@code startWithin}, unless it is zero
     * ({@link ClaimAhead}).
     */
    record Claimed(List<ClaimedJob> jobs, boolean untilJobsEnd, Duration startWithin) {
        static final Claimed NOTHING = new Claimed(List.of(), false, Duration.ZERO);
    }

    private final QueueOptions options;
    private final ClaimStore claims;
    private final Clock clock;
    private final LeaseClock leaseClock;
    private final String node;
    private final DatabaseReachability database;
    private final OutageLog outage;
    private final JobMetrics metrics;
    private final RetryTimer retries;
    private final HeldWake heldWake;
    private final ClaimCursor cursor;
    private final UnsettledLeases unsettled;
    /**
     * Whether claims go through the queue's cluster-wide limits: configured here, or set by an admin. A worker
     * whose queue has none here asks every {@link #LIMITS_CHECK} whether an admin set one.
     */
    private volatile boolean limited;
    private volatile Instant nextLimitsCheck = Instant.MIN;

    Claimer(QueueOptions options, ClaimStore claims, Clock clock, LeaseClock leaseClock, String node,
            DatabaseReachability database, OutageLog outage, JobMetrics metrics, RetryTimer retries,
            HeldWake heldWake, ClaimCursor cursor, UnsettledLeases unsettled) {
        this.options = options;
        this.claims = claims;
        this.clock = clock;
        this.leaseClock = leaseClock;
        this.node = node;
        this.database = database;
        this.outage = outage;
        this.metrics = metrics;
        this.retries = retries;
        this.heldWake = heldWake;
        this.cursor = cursor;
        this.unsettled = unsettled;
        this.limited = options.limits().any();
    }

    /** Whether the queue's claims go through its cluster-wide limits, as the last claim found. */
    boolean limited() {
        return limited;
    }

    /** Jobs due before the last claim's may have become claimable here; see {@link ClaimCursor#rewind()}. */
    void rewind() {
        cursor.rewind();
    }

    /**
     * Claims up to {@code wanted} jobs; none while the database is out, or when the claim fails. Under limits,
     * {@code ahead} says how many of them start at once and how soon the rest would.
     */
    Claimed claim(int wanted, ClaimAhead ahead, Instant leaseExpiresAt) {
        if (!outage.mayTry(database)) {
            return Claimed.NOTHING;
        }
        RetryTimer.Turn turn = retries.nextClaim();
        Instant now = clock.instant();
        ClaimStart start = cursor.start();
        String leaseToken = UUID.randomUUID().toString();
        try {
            Claimed claimed = limited || checkLimitsNow(now)
                    ? claimWithinLimits(wanted, ahead, leaseToken, now, leaseExpiresAt, turn, start)
                    : new Claimed(claims.claim(options.queue(), wanted, leaseToken, node, now, leaseExpiresAt,
                            turn.includeRetries(), start), false, Duration.ZERO);
            cursor.claimed(claimed.jobs());
            outage.succeeded();
            if (claimed.jobs().size() == wanted) {
                // A full claim may have left due retries behind: the next claim takes retries too.
                retries.mayHaveLeftRetries(turn);
            }
            return claimed;
        } catch (RuntimeException e) {
            if (ConnectionLoss.causedBy(e)) {
                unsettled.claimLost(options.queue(), leaseToken, options.lease());
            }
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

    private Claimed claimWithinLimits(int wanted, ClaimAhead ahead, String leaseToken, Instant now,
            Instant leaseExpiresAt, RetryTimer.Turn turn, ClaimStart start) {
        LimitedClaim claim = claims.claimWithinLimits(options.queue(), options.limits(), wanted, ahead, leaseToken,
                node, now, leaseClock.now(), leaseExpiresAt, turn.includeRetries(), start);
        limited = claim.limits().any();
        if (claim.held()) {
            metrics.heldBack(options.queue(), switch (claim.heldBy()) {
                case RATE_LIMIT -> JobMetrics.Hold.RATE_LIMIT;
                case MAX_RUNNING -> JobMetrics.Hold.MAX_RUNNING;
                default -> JobMetrics.Hold.PAUSE;
            });
            if (claim.retryAt() != null) {
                heldWake.wakeAt(claim.retryAt());
            }
        }
        boolean untilJobsEnd = claim.heldBy() == LimitedClaim.HeldBy.MAX_RUNNING
                || claim.heldBy() == LimitedClaim.HeldBy.RUNNERS;
        return new Claimed(claim.jobs(), untilJobsEnd, claim.startWithin());
    }
}
