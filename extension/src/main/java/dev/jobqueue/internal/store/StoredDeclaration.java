package dev.jobqueue.internal.store;

import java.time.Instant;

/**
 * A row of {@code jobqueue_schedule_declaration}: one distinct {@code @Recurring} declaration of a schedule.
 *
 * @param fingerprint a hash of the declaration's definition
 * @param declaredAt  when a node first declared it, on the database's clock
 * @param seenAt      when a running node last declared it
 */
public record StoredDeclaration(String fingerprint, Instant declaredAt, Instant seenAt) {
}
