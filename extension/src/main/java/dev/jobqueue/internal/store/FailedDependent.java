package dev.jobqueue.internal.store;

/**
 * A WAITING job that became FAILED because a job it waited for failed.
 *
 * @param id     the job
 * @param queue  its queue
 * @param group  its group, or null
 * @param reason why it failed
 */
public record FailedDependent(String id, String queue, String group, String reason) {
}
