package dev.jobqueue.internal.dispatch;

import static dev.jobqueue.internal.dispatch.ExecutorRig.T0;
import static dev.jobqueue.internal.dispatch.ExecutorRig.options;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.QueueBackoffException;
import dev.jobqueue.internal.config.TraceParent;
import dev.jobqueue.internal.fixtures.RecordingTracing;
import dev.jobqueue.internal.fixtures.TestOptions;
import dev.jobqueue.internal.store.ClaimedJob;
import dev.jobqueue.internal.trace.TraceContext;
import dev.jobqueue.internal.trace.TracedJob;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Each consumer call runs inside one span, open while the consumer runs, that ends with how the call ended: the
 * tracer (played by the test) hears of every job of the call with its attempt and the trace context it was put
 * with, and of a failure with what was thrown.
 */
class CallSpanTest {

    private static final TraceContext PUT_BY =
            new TraceContext("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "vendor=value");

    private final ExecutorRig rig = new ExecutorRig();
    private final RecordingTracing tracing = rig.tracing;

    private static ClaimedJob job(int n, int attempt) {
        return new ClaimedJob(String.format("0190a0b0-0000-7000-8000-%012d", n), "reports",
                "{\"name\":\"job-" + n + "\"}", attempt, T0.minusSeconds(60), T0.minusSeconds(5), "lease-" + n, null,
                null, 0, PUT_BY);
    }

    @Test
    void a_call_runs_inside_its_span_which_names_the_job_its_attempt_and_how_it_was_put() {
        List<RecordingTracing.Span> openDuringCall = new ArrayList<>();
        rig.consumer.during = () -> openDuringCall.add(tracing.open());

        rig.executor.execute(job(1, 2), ReportsConsumer.method(),
                TestOptions.queue("reports").traceParent(TraceParent.LINK).build());

        assertEquals(1, tracing.spans.size());
        RecordingTracing.Span span = tracing.spans.get(0);
        assertEquals(List.of(span), openDuringCall, "the span is open while the consumer runs");
        assertEquals("reports", span.queue);
        assertEquals(List.of(new TracedJob(job(1, 2).id(), 2, PUT_BY)), span.jobs);
        assertEquals(TraceParent.LINK, span.parent, "the queue's trace-parent");
        assertEquals("DONE", span.outcome);
        assertNull(span.error);
        assertFalse(span.failed);
    }

    @Test
    void a_failed_attempt_ends_its_span_as_failed_with_what_the_consumer_threw() {
        IllegalStateException thrown = new IllegalStateException("partner down");
        rig.consumer.throwing = thrown;

        rig.executor.execute(job(1, 1), ReportsConsumer.method(), options(3));

        RecordingTracing.Span span = tracing.spans.get(0);
        assertEquals("RETRY", span.outcome);
        assertSame(thrown, span.error);
        assertTrue(span.failed);
        assertTrue(span.ended);
    }

    @Test
    void a_last_attempt_that_fails_ends_its_span_as_failed() {
        rig.consumer.throwing = new IllegalStateException("still down");

        rig.executor.execute(job(1, 3), ReportsConsumer.method(), options(3));

        assertEquals("FAILED", tracing.spans.get(0).outcome);
        assertTrue(tracing.spans.get(0).failed);
    }

    @Test
    void a_consumer_that_backs_the_queue_off_has_not_failed() {
        rig.consumer.throwing = new QueueBackoffException(Duration.ofSeconds(30), "429 from the partner");

        rig.executor.execute(job(1, 1), ReportsConsumer.method(), options(3));

        RecordingTracing.Span span = tracing.spans.get(0);
        assertEquals("BACKED_OFF", span.outcome);
        assertTrue(span.error instanceof QueueBackoffException, "the exception is recorded: " + span.error);
        assertFalse(span.failed);
    }

    @Test
    void a_batch_call_has_one_span_for_its_jobs_and_a_failing_one_ends_before_its_halves_run() {
        List<ClaimedJob> jobs = List.of(job(0, 1), job(1, 1), job(2, 1), job(3, 1));
        rig.consumer.poison = new ReportsConsumer.Report("job-3");

        rig.executor.executeTogether(jobs, ReportsConsumer.batchMethod(), options(3));

        RecordingTracing.Span whole = tracing.spans.get(0);
        assertEquals(jobs.stream().map(ClaimedJob::traced).toList(), whole.jobs, "one span for the four");
        assertEquals("SPLIT", whole.outcome);
        assertTrue(whole.failed);
        assertEquals(List.of(2, 2, 1, 1), tracing.spans.subList(1, tracing.spans.size()).stream()
                .map(span -> span.jobs.size()).toList(), "the halves, then the failing half's jobs alone");
        assertEquals(List.of("DONE", "SPLIT", "DONE", "RETRY"), tracing.spans.subList(1, tracing.spans.size())
                .stream().map(span -> span.outcome).toList());
        assertTrue(tracing.spans.stream().allMatch(span -> span.ended));
    }
}
