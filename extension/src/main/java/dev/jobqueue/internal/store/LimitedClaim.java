package dev.jobqueue.internal.store;

import dev.jobqueue.internal.config.QueueLimits;
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
 */
public record LimitedClaim(List<ClaimedJob> jobs, QueueLimits limits, HeldBy heldBy, Instant retryAt) {

    /** What held a claim back. */
    public enum HeldBy {
        NOTHING, RATE_LIMIT, MAX_RUNNING, PAUSE
    }

    public LimitedClaim {
        jobs = List.copyOf(jobs);
    }

    public boolean held() {
        return heldBy != HeldBy.NOTHING;
    }
}
