package dev.jobqueue.internal.store;

import dev.jobqueue.internal.config.QueueLimits;
import java.time.Instant;

/**
 * A queue's cluster-wide switches and flow control, in {@code jobqueue_queue}. A queue without a row is not
 * paused and has its configured limits.
 *
 * @param name               the queue
 * @param paused             whether no node claims its jobs, by an admin's pause
 * @param pausedUntil        the end of a backoff its consumer asked for, or null
 * @param rateOverride       an admin's rate limit, {@link QueueLimits#NONE}, or null for the configured one
 * @param maxRunningOverride an admin's {@code max-running}, 0 for none, or null for the configured one
 * @param startWindow        the text of the starts in the last period of a rate-limited queue, or null
 */
public record QueueControlRow(String name, boolean paused, Instant pausedUntil, String rateOverride,
        Integer maxRunningOverride, String startWindow) {

    public String getName() {
        return name;
    }
}
