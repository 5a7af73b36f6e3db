package dev.jobqueue.internal.trace;

import dev.jobqueue.internal.config.TraceParent;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapSetter;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Locale;
import java.util.logging.Logger;

/**
 * Traces with the OpenTelemetry API: the {@link JobTracing} of an application that can see it, as on a server
 * with MicroProfile Telemetry. It uses the server's {@code OpenTelemetry} bean, or else the global one (an agent's,
 * or a no-op). With the SDK disabled, MicroProfile Telemetry's default, no span is valid: a put stores nothing and
 * every span is a no-op. An application-scoped bean: the extension adds it.
 *
 * <p>A call's span is a {@link SpanKind#CONSUMER} span named {@code process <queue>}, with OpenTelemetry's
 * messaging attributes: {@code messaging.system} {@code jobqueue}, {@code messaging.destination.name} the queue,
 * {@code messaging.operation.name} and {@code messaging.operation.type} {@code process}, and for one job
 * {@code messaging.message.id} its id and {@code jobqueue.job.attempt} the attempt; for several,
 * {@code messaging.batch.message_count}. At its end, {@code jobqueue.job.outcome} says how the call ended.
 */
public class OpenTelemetryJobTracing implements JobTracing {

    private static final Logger LOG = Logger.getLogger(OpenTelemetryJobTracing.class.getName());
    private static final String TRACEPARENT = "traceparent";
    private static final String TRACESTATE = "tracestate";
    private static final W3CTraceContextPropagator W3C = W3CTraceContextPropagator.getInstance();

    private static final TextMapSetter<String[]> INTO_PAIR = (pair, key, value) -> {
        if (TRACEPARENT.equals(key)) {
            pair[0] = value;
        } else if (TRACESTATE.equals(key)) {
            pair[1] = value;
        }
    };

    private static final TextMapGetter<TraceContext> FROM_STORED = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(TraceContext stored) {
            return List.of(TRACEPARENT, TRACESTATE);
        }

        @Override
        public String get(TraceContext stored, String key) {
            if (stored == null) {
                return null;
            }
            return TRACEPARENT.equals(key) ? stored.traceparent() : TRACESTATE.equals(key) ? stored.tracestate() : null;
        }
    };

    private static final String SCOPE = "dev.jobqueue";

    @Inject
    Instance<OpenTelemetry> servers;

    private Tracer tracer;

    /** The bean's constructor: the tracer comes from the server once the bean is made. */
    public OpenTelemetryJobTracing() {
    }

    /** Traces with {@code openTelemetry}. */
    OpenTelemetryJobTracing(OpenTelemetry openTelemetry) {
        tracer = openTelemetry.getTracer(SCOPE);
    }

    @PostConstruct
    void findTracer() {
        OpenTelemetry openTelemetry = servers.isResolvable() ? servers.get() : GlobalOpenTelemetry.get();
        tracer = openTelemetry.getTracer(SCOPE);
    }

    @Override
    public TraceContext current() {
        Context context = Context.current();
        if (!Span.fromContext(context).getSpanContext().isValid()) {
            return null;
        }
        String[] pair = new String[2];
        W3C.inject(context, pair, INTO_PAIR);
        if (pair[0] == null || pair[0].length() > TraceContext.TRACEPARENT_LENGTH) {
            return null;
        }
        String tracestate = pair[1] == null || pair[1].isEmpty() || pair[1].length() > TraceContext.TRACESTATE_LENGTH
                ? null : pair[1];
        return new TraceContext(pair[0], tracestate);
    }

    @Override
    public ConsumerSpan start(String queue, List<TracedJob> jobs, TraceParent parent) {
        try {
            SpanBuilder builder = tracer.spanBuilder("process " + queue)
                    .setSpanKind(SpanKind.CONSUMER)
                    .setAttribute("messaging.system", "jobqueue")
                    .setAttribute("messaging.destination.name", queue)
                    .setAttribute("messaging.operation.name", "process")
                    .setAttribute("messaging.operation.type", "process");
            if (jobs.size() == 1) {
                builder.setAttribute("messaging.message.id", jobs.get(0).id())
                        .setAttribute("jobqueue.job.attempt", jobs.get(0).attempt());
            } else {
                builder.setAttribute("messaging.batch.message_count", jobs.size());
            }
            builder.setParent(relate(builder, jobs, parent));
            Span span = builder.startSpan();
            return new Current(span, span.makeCurrent());
        } catch (RuntimeException e) {
            LOG.fine(() -> "jobqueue: no span for a call of queue " + queue + ": " + e);
            return ConsumerSpan.NONE;
        }
    }

    /**
     * Links the span to the spans that put its jobs, and returns its parent: the putting span for the first
     * attempt of a job alone, with {@link TraceParent#CHILD}; otherwise the root, so that the span starts a trace.
     */
    private static Context relate(SpanBuilder builder, List<TracedJob> jobs, TraceParent parent) {
        if (parent == TraceParent.NONE) {
            return Context.root();
        }
        for (TracedJob job : jobs) {
            SpanContext putBy = putBy(job);
            if (!putBy.isValid()) {
                continue;
            }
            if (parent == TraceParent.CHILD && jobs.size() == 1 && job.attempt() == 1) {
                return Context.root().with(Span.wrap(putBy));
            }
            builder.addLink(putBy);
        }
        return Context.root();
    }

    private static SpanContext putBy(TracedJob job) {
        if (job.putBy() == null) {
            return SpanContext.getInvalid();
        }
        return Span.fromContext(W3C.extract(Context.root(), job.putBy(), FROM_STORED)).getSpanContext();
    }

    /** A started span and the scope that makes it current. */
    private record Current(Span span, Scope scope) implements ConsumerSpan {

        @Override
        public void end(String outcome, Throwable error, boolean failed) {
            try {
                span.setAttribute("jobqueue.job.outcome", outcome.toLowerCase(Locale.ROOT));
                if (error != null) {
                    span.recordException(error);
                }
                if (failed) {
                    span.setStatus(StatusCode.ERROR, error == null ? outcome : String.valueOf(error));
                }
            } finally {
                scope.close();
                span.end();
            }
        }
    }
}
