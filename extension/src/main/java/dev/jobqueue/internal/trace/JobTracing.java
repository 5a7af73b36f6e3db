package dev.jobqueue.internal.trace;

import dev.jobqueue.internal.config.TraceParent;
import java.util.List;

/**
 * What jobqueue tells the server's tracing: the trace context a put stores with its job, and a span around each
 * consumer call. The extension adds one implementation, OpenTelemetry's where the application can see its API
 * ({@link OpenTelemetryJobTracing}), else {@link NoJobTracing}.
 */
public interface JobTracing {

    /** The trace context of the span current on this thread, to store with a job put now; null if there is none. */
    TraceContext current();

    /**
     * Starts the span of one consumer call and makes it current on this thread, so that what the consumer traces
     * is part of it.
     *
     * @param queue  the queue
     * @param jobs   the call's jobs: one, or a batch consumer's several
     * @param parent how the span relates to the spans that put the jobs
     */
    ConsumerSpan start(String queue, List<TracedJob> jobs, TraceParent parent);
}
