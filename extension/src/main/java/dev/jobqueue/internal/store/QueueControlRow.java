package dev.jobqueue.internal.store;

/**
 * A queue's cluster-wide switches, in {@code jobqueue_queue}. A queue without a row is not paused.
 *
 * @param name   the queue
 * @param paused whether no node claims its jobs
 */
public record QueueControlRow(String name, boolean paused) {

    public String getName() {
        return name;
    }

    public boolean isPaused() {
        return paused;
    }
}
