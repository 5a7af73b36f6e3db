package dev.jobqueue;

import java.time.Instant;

/**
 * A CDI event fired when a job gives up and becomes FAILED. Observe it to alert:
 * {@code void onFailure(@Observes JobFailed failed)}. The job stays in the table as a dead letter until
 * it is replayed or purged. An observer that throws is logged and does not affect the queue.
 *
 * @param id       the job
 * @param queue    its queue
 * @param attempts how many attempts it had
 * @param error    the last error: a message and a truncated stack trace, or why the job could not run
 * @param failedAt when it became FAILED
 */
public record JobFailed(JobId id, String queue, int attempts, String error, Instant failedAt) {
}
