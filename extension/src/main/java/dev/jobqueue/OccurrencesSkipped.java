package dev.jobqueue;

import java.time.ZonedDateTime;

/**
 * A CDI event fired when a recurring schedule skips occurrences: one event per schedule, reason and round. An
 * observer that throws is logged and does not affect the schedule.
 *
 * @param schedule the schedule's name
 * @param queue    the queue its jobs go to
 * @param reason   why they were skipped
 * @param count    how many were skipped
 * @param first    the first skipped occurrence's time, in the schedule's zone
 * @param last     the last skipped occurrence's time
 */
public record OccurrencesSkipped(String schedule, String queue, Reason reason, int count, ZonedDateTime first,
        ZonedDateTime last) {

    /** Why occurrences were skipped. */
    public enum Reason {
        /** They were missed, and the schedule's {@link MissedOccurrences} policy did not put them. */
        MISSED,
        /** The previous occurrence had not finished, and the schedule's {@link OverlapPolicy} is SKIP. */
        OVERLAP
    }
}
