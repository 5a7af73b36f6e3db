package dev.jobqueue.internal.cron;

import dev.jobqueue.internal.store.ScheduleRow;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;

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
                false, paused, nextFireAt, null, null, null);
    }

    /** A hash of what the row stores of this definition, 64 hexadecimal digits: equal for equal definitions. */
    public String fingerprint() {
        ScheduleRow row = row(Instant.EPOCH, false);
        String text = String.join("\n", row.queue(), row.cron(), row.zone(), String.valueOf(row.payload()),
                row.missed(), Long.toString(row.missedAfterMs()), Integer.toString(row.catchUpLimit()), row.overlap(),
                Boolean.toString(row.declared()), Boolean.toString(row.enabled()));
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
