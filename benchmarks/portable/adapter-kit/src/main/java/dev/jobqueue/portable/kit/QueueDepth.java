package dev.jobqueue.portable.kit;

/** How a system counts its jobs waiting to be claimed; polled four times a second. */
@FunctionalInterface
public interface QueueDepth {

    /**
     * Counts them.
     *
     * @return the count
     * @throws Exception when it cannot; the last count stays
     */
    long count() throws Exception;
}
