package dev.jobqueue.internal.store;

import java.time.Instant;

/**
 * What the job view adds to a job's summary: the options it was put with, who runs it, and the first page of its
 * dependencies both ways, with how many there are.
 *
 * @param priority       its priority
 * @param dedupeKey      its dedupe key, or null
 * @param orderingKey    its ordering key, or null
 * @param group          its group, or null
 * @param claimedBy      the node that claimed it last, or null
 * @param startedAt      when its last attempt started, or null
 * @param leaseExpiresAt when the running attempt's lease runs out, or null
 * @param waitsFor       the jobs it waits for
 * @param waitedBy       the jobs that wait for it
 */
public record JobExtras(int priority, String dedupeKey, String orderingKey, String group, String claimedBy,
        Instant startedAt, Instant leaseExpiresAt, JobLinks waitsFor, JobLinks waitedBy) {
}
