package dev.jobqueue.internal.store;

import java.time.Instant;
import java.util.Objects;

/**
 * A row of {@code jobqueue_schedule}, with the state of its last occurrence's job when listed.
 *
 * @param payload         the JSON each occurrence's job carries, or null for an {@code Occurrence}
 * @param missedAfterMs   how late an occurrence may be found before it counts as missed, in milliseconds
 * @param declared        whether {@code @Recurring} made it, rather than {@code JobSchedules}
 * @param enabled         false once no running node declares it, or config turns it off
 * @param declarationGone whether it was turned off because no running node declared it any more
 * @param paused          whether an operator paused it
 * @param lastJobState    the state of the last occurrence's job, or null if none was put or it has been deleted
 */
public record ScheduleRow(String name, String queue, String cron, String zone, String payload, String missed,
        long missedAfterMs, int catchUpLimit, String overlap, boolean declared, boolean enabled,
        boolean declarationGone, boolean paused, Instant nextFireAt, Instant lastFireAt, String lastJobId,
        String lastJobState) {

    /** The same row, due next at {@code next}. */
    public ScheduleRow withNextFireAt(Instant next) {
        return new ScheduleRow(name, queue, cron, zone, payload, missed, missedAfterMs, catchUpLimit, overlap, declared,
                enabled, declarationGone, paused, next, lastFireAt, lastJobId, lastJobState);
    }

    /** Whether {@code other} defines the same schedule: same queue, times, payload, policies and switches. */
    public boolean sameDefinition(ScheduleRow other) {
        return queue.equals(other.queue) && cron.equals(other.cron) && zone.equals(other.zone)
                && Objects.equals(payload, other.payload) && missed.equals(other.missed)
                && missedAfterMs == other.missedAfterMs && catchUpLimit == other.catchUpLimit
                && overlap.equals(other.overlap) && declared == other.declared && enabled == other.enabled
                && declarationGone == other.declarationGone;
    }

    /** Whether {@code other} fires at other times: another cron expression or zone. */
    public boolean sameTimes(ScheduleRow other) {
        return cron.equals(other.cron) && zone.equals(other.zone);
    }
}
