package dev.jobqueue.internal.store;

/**
 * A job that another waits for, or that waits for another.
 *
 * @param id    the job
 * @param queue its queue, or null if it no longer exists (a deleted job counts as DONE)
 * @param state its state, or null if it no longer exists
 */
public record JobLink(String id, String queue, JobState state) {
}
