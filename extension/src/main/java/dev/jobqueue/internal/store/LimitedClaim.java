package dev.jobqueue.internal.store;

import dev.jobqueue.internal.config.QueueLimits;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What a claim under a queue's cluster-wide limits took, and whether a limit held jobs back.
 *
 * @param jobs    the claimed jobs, in claim order
 * @param limits  the limits in force: the configuration with an admin's overrides
 * @param heldBy  what held jobs back, if anything did
 * @param retryAt when a claim may take more, if known: the window's next room, or the end of a backoff; null
 *                otherwise (a claim held by {@code max-running} waits for jobs to finish)
 * @param startWithin how long after the claim the jobs beyond {@link ClaimAhead#atOnce()} must start, else be
 *                    handed back; zero when none of them must ({@link ClaimAhead})
 */
public record LimitedClaim(List<ClaimedJob> jobs, QueueLimits limits, HeldBy heldBy, Instant retryAt,
        Duration startWithin) {

    /**
     * What held a claim back. {@code RUNNERS}: the claim took only what the node's free runners start at once,
     * because jobs taken ahead would count against {@code max-running} or the rate limit is near; it held back
     * nothing the node could have run, and the node claims again when one of its calls ends.
     */
    public enum HeldBy {
        NOTHING, RATE_LIMIT, MAX_RUNNING, PAUSE, RUNNERS
    }

    public LimitedClaim {
        jobs = List.copyOf(jobs);
    }

    /** Whether a limit or a pause held back jobs the node could have run. */
    public boolean held() {
        return heldBy != HeldBy.NOTHING && heldBy != HeldBy.RUNNERS;
    }
}
