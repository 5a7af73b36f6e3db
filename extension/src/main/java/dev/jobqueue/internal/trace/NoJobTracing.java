package dev.jobqueue.internal.trace;

import dev.jobqueue.internal.config.TraceParent;
import java.util.List;

/**
 * Traces nothing: the {@link JobTracing} of an application that cannot see the OpenTelemetry API. An
 * application-scoped bean then: the extension adds it.
 */
public class NoJobTracing implements JobTracing {

    @Override
    public TraceContext current() {
        return null;
    }

    @Override
    public ConsumerSpan start(String queue, List<TracedJob> jobs, TraceParent parent) {
        return ConsumerSpan.NONE;
    }
}
