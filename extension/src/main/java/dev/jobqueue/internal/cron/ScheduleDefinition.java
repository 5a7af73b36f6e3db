package dev.jobqueue.internal.cron;

import dev.jobqueue.internal.store.ScheduleRow;
import java.time.Instant;

/**
 * A schedule as declared or saved: checked, with its policies resolved, not yet stored.
 *
 * @param payload  the JSON each occurrence's job carries, or null for an {@code Occurrence}
 * @param declared whether {@code @Recurring} declares it
 * @param enabled  false if configuration turns it off
 */
public record ScheduleDefinition(String name, String queue, CronSchedule cron, SchedulePolicy policy, String payload,
        boolean declared, boolean enabled) {

    /** The row for this definition, next due at {@code nextFireAt}. */
    public ScheduleRow row(Instant nextFireAt, boolean paused) {
        return new ScheduleRow(name, queue, cron.expression(), cron.zone().getId(), payload, policy.missed().name(),
                policy.missedAfter().toMillis(), policy.catchUpLimit(), policy.overlap().name(), declared, enabled,
                paused, nextFireAt, null, null, null);
    }
}
