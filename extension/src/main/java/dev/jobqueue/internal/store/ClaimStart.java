package dev.jobqueue.internal.store;

import java.time.Instant;

/**
 * Where a claim starts reading a queue's due jobs, when not at the first: at the jobs of one priority due at
 * {@code dueFrom} or later. The index of PENDING jobs keeps an entry for every job claimed since the oldest open
 * snapshot of the database began; a claim that starts past those entries does not read through them.
 *
 * @param priority the priority of the jobs it reads
 * @param dueFrom  the earliest due time it reads
 */
public record ClaimStart(int priority, Instant dueFrom) {
}
