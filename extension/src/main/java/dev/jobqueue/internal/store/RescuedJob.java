package dev.jobqueue.internal.store;

import java.time.Instant;

/**
 * A job whose expired lease was taken back.
 *
 * @param id             the job
 * @param queue          its queue
 * @param attempt        the attempt that was cut short
 * @param leaseExpiredAt when its lease expired
 */
public record RescuedJob(String id, String queue, int attempt, Instant leaseExpiredAt) {
}
