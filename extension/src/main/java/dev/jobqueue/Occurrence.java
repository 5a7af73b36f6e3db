package dev.jobqueue;

import java.time.ZonedDateTime;

/**
 * The payload of a job put by a recurring schedule that has no payload of its own, such as one declared with
 * {@link Recurring}: which schedule put it, and for which of its times.
 *
 * @param schedule     the schedule's name
 * @param scheduledFor the occurrence's time in the schedule's zone; on the day the clocks go back, its offset
 *                     tells the two passes of the repeated hour apart
 */
public record Occurrence(String schedule, ZonedDateTime scheduledFor) {
}
