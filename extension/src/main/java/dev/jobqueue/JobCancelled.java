package dev.jobqueue;

import java.time.Instant;

/**
 * A CDI event fired once when an operator cancels a job ({@link JobAdmin#cancel}), on the node that cancelled it,
 * after that transaction committed: {@code void onCancel(@Observes JobCancelled cancelled)}. The jobs that waited
 * for it are FAILED, each with a {@link JobFailed}. An observer that throws is logged and does not affect the queue.
 *
 * @param id          the job
 * @param queue       its queue
 * @param cancelledAt when it became CANCELLED
 */
public record JobCancelled(JobId id, String queue, Instant cancelledAt) {
}
