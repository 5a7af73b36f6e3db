package dev.jobqueue.internal.trace;

/** The span of one consumer call, current on the calling thread from its start until {@link #end}. */
public interface ConsumerSpan {

    /** The span of a server that does not trace: ending it does nothing. */
    ConsumerSpan NONE = (outcome, error, failed) -> {
    };

    /**
     * Ends the span, and its being current.
     *
     * @param outcome how the call ended for jobqueue, such as {@code DONE} or {@code RETRY}
     * @param error   what the consumer or the job's completion threw, or null
     * @param failed  whether the attempt failed: its work was rolled back
     */
    void end(String outcome, Throwable error, boolean failed);
}
