package dev.jobqueue;

import java.time.Instant;

/**
 * A CDI event fired when an attempt fails and the job will run again after its backoff. An observer that
 * throws is logged and does not affect the queue.
 *
 * @param id        the job
 * @param queue     its queue
 * @param attempt   the attempt that failed, starting at 1
 * @param error     the error: a message and a truncated stack trace
 * @param failedAt  when the attempt failed
 * @param nextRunAt when the job runs again
 */
public record JobRetried(JobId id, String queue, int attempt, String error, Instant failedAt, Instant nextRunAt) {
}
