package dev.jobqueue.internal.trace;

/**
 * The W3C trace context of the span that put a job, stored with the job so that its consumer's span can follow
 * it, on whichever node that runs.
 *
 * @param traceparent the {@code traceparent} header's value
 * @param tracestate  the {@code tracestate} header's value, or null when the span has none
 */
public record TraceContext(String traceparent, String tracestate) {

    /** The longest {@code traceparent} of version 00, the one jobqueue writes. */
    public static final int TRACEPARENT_LENGTH = 55;

    /**
     * The longest {@code tracestate} kept, the length W3C asks every vendor to pass on; a longer one is left out, as
     * the specification allows.
     */
    public static final int TRACESTATE_LENGTH = 512;
}
