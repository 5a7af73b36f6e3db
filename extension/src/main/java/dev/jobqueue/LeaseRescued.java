package dev.jobqueue;

import java.time.Instant;

/**
 * A CDI event fired when a RUNNING job's lease expired, because its node died or lost the database, and the
 * job was made PENDING again so that any node can run it. An observer that throws is logged and does not
 * affect the queue.
 *
 * @param id             the job
 * @param queue          its queue
 * @param attempt        the attempt that was cut short
 * @param error          why the job was rescued
 * @param leaseExpiredAt when the lease expired
 * @param rescuedAt      when it was made PENDING again
 */
public record LeaseRescued(JobId id, String queue, int attempt, String error, Instant leaseExpiredAt,
        Instant rescuedAt) {
}
