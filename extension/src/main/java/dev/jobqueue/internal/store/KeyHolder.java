package dev.jobqueue.internal.store;

/**
 * The unfinished job that holds a dedupe key.
 *
 * @param id    its id
 * @param state its state
 */
public record KeyHolder(String id, JobState state) {
}
