package dev.jobqueue.internal.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.internal.config.TraceParent;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The spans jobqueue makes with OpenTelemetry's SDK and its in-memory exporter: the trace context a put stores,
 * and each consumer call's span with its messaging attributes, its parent or links, and its status.
 */
class OpenTelemetryJobTracingTest {

    private static final String PUT_TRACE = "0af7651916cd43dd8448eb211c80319c";
    private static final String PUT_SPAN = "b7ad6b7169203331";
    private static final TraceContext PUT_BY =
            new TraceContext("00-" + PUT_TRACE + "-" + PUT_SPAN + "-01", "vendor=value");
    private static final String JOB = "0190a0b0-0000-7000-8000-000000000001";

    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter))
                    .build())
            .build();
    private final OpenTelemetryJobTracing tracing = new OpenTelemetryJobTracing(sdk);

    @AfterEach
    void close() {
        sdk.close();
    }

    private SpanData run(List<TracedJob> jobs, TraceParent parent) {
        tracing.start("emails", jobs, parent).end("DONE", null, false);
        List<SpanData> spans = exporter.getFinishedSpanItems();
        assertEquals(1, spans.size(), "one span: " + spans);
        return spans.get(0);
    }

    private SpanData run(int attempt, TraceContext putBy, TraceParent parent) {
        return run(List.of(new TracedJob(JOB, attempt, putBy)), parent);
    }

    private static List<String> linkedSpans(SpanData span) {
        return span.getLinks().stream().map(LinkData::getSpanContext)
                .map(context -> context.getTraceId() + "/" + context.getSpanId()).toList();
    }

    @Test
    void a_put_inside_a_span_stores_its_traceparent_and_tracestate_and_outside_one_nothing() {
        assertNull(tracing.current(), "no span current");

        Tracer tracer = sdk.getTracer("test");
        Span request = tracer.spanBuilder("POST /orders").startSpan();
        try (Scope scope = request.makeCurrent()) {
            TraceContext stored = tracing.current();
            String ids = request.getSpanContext().getTraceId() + "-" + request.getSpanContext().getSpanId();
            assertEquals("00-" + ids + "-01", stored.traceparent());
            assertNull(stored.tracestate(), "the span has no trace state");
        } finally {
            request.end();
        }
    }

    @Test
    void a_trace_state_longer_than_the_column_is_left_out_so_that_the_put_still_fits() {
        String value = "v".repeat(250);
        SpanContext parent = SpanContext.createFromRemoteParent(PUT_TRACE, PUT_SPAN, TraceFlags.getSampled(),
                TraceState.builder().put("a", value).put("b", value).put("c", value).build());
        Span request = sdk.getTracer("test").spanBuilder("POST /orders")
                .setParent(Context.root().with(Span.wrap(parent))).startSpan();
        try (Scope scope = request.makeCurrent()) {
            TraceContext stored = tracing.current();
            assertTrue(stored.traceparent().startsWith("00-" + PUT_TRACE + "-"), stored.traceparent());
            assertNull(stored.tracestate(), "over " + TraceContext.TRACESTATE_LENGTH + " characters: left out");
        } finally {
            request.end();
        }
    }

    @Test
    void the_first_attempt_is_a_child_of_the_putting_span_with_the_messaging_attributes() {
        SpanData span = run(1, PUT_BY, TraceParent.CHILD);

        assertEquals("process emails", span.getName());
        assertEquals(SpanKind.CONSUMER, span.getKind());
        assertEquals(PUT_TRACE, span.getTraceId(), "in the put's trace");
        assertEquals(PUT_SPAN, span.getParentSpanId());
        assertTrue(span.getParentSpanContext().isRemote());
        assertEquals("value", span.getSpanContext().getTraceState().get("vendor"), "the trace state follows");
        assertTrue(span.getLinks().isEmpty());
        assertEquals("jobqueue", span.getAttributes().get(AttributeKey.stringKey("messaging.system")));
        assertEquals("emails", span.getAttributes().get(AttributeKey.stringKey("messaging.destination.name")));
        assertEquals("process", span.getAttributes().get(AttributeKey.stringKey("messaging.operation.type")));
        assertEquals(JOB, span.getAttributes().get(AttributeKey.stringKey("messaging.message.id")));
        assertEquals(1L, span.getAttributes().get(AttributeKey.longKey("jobqueue.job.attempt")));
        assertEquals("done", span.getAttributes().get(AttributeKey.stringKey("jobqueue.job.outcome")));
        assertEquals(StatusCode.UNSET, span.getStatus().getStatusCode());
    }

    @Test
    void a_retry_starts_a_new_trace_linked_to_the_putting_span() {
        SpanData span = run(2, PUT_BY, TraceParent.CHILD);

        assertNotEquals(PUT_TRACE, span.getTraceId());
        assertFalse(span.getParentSpanContext().isValid(), "a root span");
        assertEquals(List.of(PUT_TRACE + "/" + PUT_SPAN), linkedSpans(span));
        assertEquals(2L, span.getAttributes().get(AttributeKey.longKey("jobqueue.job.attempt")));
    }

    @Test
    void with_link_even_the_first_attempt_starts_a_new_trace_linked_to_the_put() {
        SpanData span = run(1, PUT_BY, TraceParent.LINK);

        assertNotEquals(PUT_TRACE, span.getTraceId());
        assertFalse(span.getParentSpanContext().isValid());
        assertEquals(List.of(PUT_TRACE + "/" + PUT_SPAN), linkedSpans(span));
    }

    @Test
    void with_none_every_attempt_starts_a_trace_unrelated_to_the_put() {
        SpanData span = run(1, PUT_BY, TraceParent.NONE);

        assertNotEquals(PUT_TRACE, span.getTraceId());
        assertFalse(span.getParentSpanContext().isValid());
        assertTrue(span.getLinks().isEmpty());
    }

    @Test
    void a_job_put_outside_a_span_or_with_an_unreadable_context_starts_a_trace_of_its_own() {
        SpanData unput = run(1, null, TraceParent.CHILD);
        assertFalse(unput.getParentSpanContext().isValid());
        assertTrue(unput.getLinks().isEmpty());
        exporter.reset();

        SpanData corrupt = run(1, new TraceContext("00-not-a-trace-01", "=,="), TraceParent.CHILD);
        assertFalse(corrupt.getParentSpanContext().isValid());
        assertTrue(corrupt.getLinks().isEmpty());
    }

    @Test
    void a_failed_attempt_records_the_exception_and_sets_the_status_to_error() {
        IllegalStateException thrown = new IllegalStateException("partner down");
        tracing.start("emails", List.of(new TracedJob(JOB, 1, PUT_BY)), TraceParent.CHILD).end("RETRY", thrown, true);

        SpanData span = exporter.getFinishedSpanItems().get(0);
        assertEquals(StatusCode.ERROR, span.getStatus().getStatusCode());
        assertEquals("retry", span.getAttributes().get(AttributeKey.stringKey("jobqueue.job.outcome")));
        assertEquals(List.of("exception"), span.getEvents().stream().map(event -> event.getName()).toList());
        assertEquals("partner down", span.getEvents().get(0).getAttributes()
                .get(AttributeKey.stringKey("exception.message")));
    }

    @Test
    void an_exception_that_counts_as_success_is_recorded_without_an_error_status() {
        tracing.start("emails", List.of(new TracedJob(JOB, 1, PUT_BY)), TraceParent.CHILD)
                .end("DONE", new IllegalArgumentException("already sent"), false);

        SpanData span = exporter.getFinishedSpanItems().get(0);
        assertEquals(StatusCode.UNSET, span.getStatus().getStatusCode());
        assertEquals(1, span.getEvents().size());
    }

    @Test
    void the_span_is_current_while_the_consumer_runs_so_that_its_own_spans_are_children() {
        ConsumerSpan call = tracing.start("emails", List.of(new TracedJob(JOB, 1, PUT_BY)), TraceParent.CHILD);
        Span inConsumer = sdk.getTracer("test").spanBuilder("INSERT orders").startSpan();
        inConsumer.end();
        call.end("DONE", null, false);

        assertFalse(Span.current().getSpanContext().isValid(), "nothing current once the call ended");
        SpanData child = exporter.getFinishedSpanItems().get(0);
        SpanData consumerSpan = exporter.getFinishedSpanItems().get(1);
        assertEquals(consumerSpan.getSpanId(), child.getParentSpanId());
    }

    @Test
    void a_batch_call_starts_a_trace_linked_to_every_putting_span() {
        TraceContext other = new TraceContext("00-11111111111111111111111111111111-2222222222222222-01", null);
        SpanData span = run(List.of(new TracedJob(JOB, 1, PUT_BY), new TracedJob("j2", 1, null),
                new TracedJob("j3", 1, other)), TraceParent.CHILD);

        assertFalse(span.getParentSpanContext().isValid());
        assertEquals(List.of(PUT_TRACE + "/" + PUT_SPAN, "11111111111111111111111111111111/2222222222222222"),
                linkedSpans(span));
        assertEquals(3L, span.getAttributes().get(AttributeKey.longKey("messaging.batch.message_count")));
        assertNull(span.getAttributes().get(AttributeKey.stringKey("messaging.message.id")));
    }
}
