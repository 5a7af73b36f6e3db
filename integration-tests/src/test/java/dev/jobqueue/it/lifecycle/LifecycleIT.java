package dev.jobqueue.it.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.JobAdmin;
import dev.jobqueue.JobFailed;
import dev.jobqueue.JobId;
import dev.jobqueue.JobQueue;
import dev.jobqueue.internal.lifecycle.JobQueueRuntime;
import dev.jobqueue.it.Await;
import dev.jobqueue.it.Deployments;
import dev.jobqueue.it.app.Confirmation;
import dev.jobqueue.it.app.PlacedOrder;
import jakarta.ejb.EJB;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Retries, giving up, success-on, poison rows, leases, stuck consumers and overrides, on a real server. */
@ExtendWith(ArquillianExtension.class)
class LifecycleIT {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @Deployment
    static WebArchive app() {
        return Deployments.war("lifecycle", "lifecycle", Calls.class, ThrowingObserver.class, Consumers.class,
                Consumers.DoomedConsumer.class, Consumers.IdempotentConsumer.class, Consumers.TypedConsumer.class,
                Consumers.StrictConsumer.class,
                Consumers.FencedConsumer.class, Consumers.SlowConsumer.class, Consumers.DisabledConsumer.class,
                JobTable.class, LogCapture.class, Confirmation.class, Confirmation.Line.class, PlacedOrder.class);
    }

    @Inject
    JobQueue jobs;

    @Inject
    Calls calls;

    @EJB
    JobTable table;

    @Inject
    JobQueueRuntime runtime;

    @Inject
    JobAdmin admin;

    @Test
    void a_job_that_keeps_failing_gives_up_as_failed_keeps_its_error_and_fires_an_event() throws Exception {
        JobId id = jobs.put("doomed", "report-42");

        assertTrue(Await.until(() -> !calls.failuresOf(id).isEmpty(), WAIT), "JobFailed was observed");

        // The per-queue key (3) beats @Consumer(maxAttempts = 2).
        assertEquals(List.of(1, 2, 3), calls.attemptsOf(id));
        JobFailed failed = calls.failuresOf(id).get(0);
        assertEquals("doomed", failed.queue());
        assertEquals(3, failed.attempts());
        assertTrue(failed.error().contains("always broken: report-42"), failed.error());
        Object[] row = table.row(id);
        assertEquals("FAILED", row[0]);
        assertEquals(3, ((Number) row[1]).intValue());
        String error = String.valueOf(row[3]);
        assertTrue(error.contains("IllegalStateException: always broken: report-42"), error);
        assertTrue(error.contains("\tat "), "the stack trace is kept: " + error);
        Thread.sleep(1_000);
        assertEquals(3, calls.attemptsOf(id).size(), "a FAILED job is not run again");
    }

    @Test
    void an_exception_listed_in_success_on_marks_the_job_done_after_one_attempt() throws Exception {
        JobId id = jobs.put("idempotent", "write-once");

        assertTrue(Await.until(() -> !calls.attemptsOf(id).isEmpty() && table.row(id) == null, WAIT),
                "the job is DONE and, with retention 0s for this queue, deleted");
        assertEquals(List.of(1), calls.attemptsOf(id));
        assertEquals(List.of(), calls.failuresOf(id));
    }

    @Test
    void a_strict_queue_runs_a_payload_that_matches_and_fails_one_with_an_unknown_field_at_once() throws Exception {
        Confirmation confirmation = new Confirmation("A-1", new BigDecimal("9.50"),
                List.of(new Confirmation.Line("tea", 2)), null);
        JobId matching = jobs.put("typed-strict", confirmation);
        JobId renamed = putPaused("typed-strict", confirmation, job -> table.corruptPayload(job,
                "{\"orderId\":\"A-2\",\"total\":9.5,\"lines\":[{\"sku\":\"tea\",\"qty\":2}]}"));

        assertTrue(Await.until(() -> "FAILED".equals(table.state(renamed)), WAIT), "the mismatched row is FAILED");
        String error = String.valueOf(table.row(renamed)[3]);
        assertTrue(error.contains("JQ044") && error.contains("unknown field 'lines[0].qty'")
                && error.contains("missing field 'lines[0].quantity'"), error);
        assertEquals(List.of(), calls.attemptsOf(renamed), "the consumer never saw it");
        assertTrue(Await.until(() -> calls.attemptsOf(matching).size() == 1, WAIT), "the matching one ran");
    }

    @Test
    void a_row_whose_payload_cannot_be_read_fails_at_once_with_the_reason() throws Exception {
        JobId id = putPaused("typed", "placeholder", job -> table.corruptPayload(job, "{\"orderId\": 7, \"total\": "));

        assertTrue(Await.until(() -> "FAILED".equals(table.state(id)), WAIT), "the poison row is FAILED");
        Object[] row = table.row(id);
        assertEquals(1, ((Number) row[1]).intValue(), "it was not retried");
        assertTrue(String.valueOf(row[3]).contains("JQ012"), String.valueOf(row[3]));
        assertTrue(String.valueOf(row[3]).contains("TypedConsumer#run"), String.valueOf(row[3]));
        assertEquals(List.of(), calls.attemptsOf(id), "the consumer never saw it");
        // JobFailed is fired after the FAILED commit, which the test may see first.
        assertTrue(Await.until(() -> calls.failuresOf(id).size() == 1, WAIT), "JobFailed fired once");
    }

    @Test
    void a_job_whose_lease_expired_on_a_dead_node_is_rescued_and_runs_here() throws Exception {
        JobId id = putPaused("typed", sampleConfirmation(), table::strandOnDeadNode);

        assertTrue(Await.until(() -> "DONE".equals(table.state(id)), WAIT), "the rescued job ran to DONE");
        assertEquals(List.of(2), calls.attemptsOf(id), "the dead node's attempt counts");
    }

    @Test
    void a_worker_that_lost_its_lease_cannot_finish_the_job_and_its_writes_roll_back() throws Exception {
        String orderId = UUID.randomUUID().toString();
        calls.closeGate();
        try (LogCapture log = new LogCapture("dev.jobqueue.internal.dispatch.JobExecutor")) {
            JobId id = jobs.put("fenced", orderId);
            assertTrue(Await.until(() -> !calls.attemptsOf(id).isEmpty(), WAIT), "the consumer is running");

            table.takeOverLease(id);
            calls.openGate();

            assertTrue(Await.until(() -> !log.recordsMentioning(id + " on queue fenced lost its lease").isEmpty(),
                    WAIT), "the worker noticed it lost the lease");
            Object[] row = table.row(id);
            assertEquals("RUNNING", row[0], "the other node's claim stands");
            assertEquals("other-node", row[2]);
            assertTrue(!table.orderExists(orderId), "the consumer's write was rolled back");
            table.delete(id);
        } finally {
            calls.openGate();
        }
    }

    @Test
    void a_consumer_past_its_max_execute_time_is_logged_once_with_its_stack() throws Exception {
        try (LogCapture log = new LogCapture("dev.jobqueue.internal.watch.StuckJobMonitor")) {
            JobId id = jobs.put("slow", "big report");

            assertTrue(Await.until(() -> "DONE".equals(table.state(id)), WAIT));

            List<LogRecord> warnings = log.recordsMentioning("job " + id + " on queue slow");
            assertEquals(1, warnings.size(), "one warning per crossing, not one per check");
            LogRecord warning = warnings.get(0);
            assertEquals(Level.WARNING, warning.getLevel());
            assertTrue(warning.getMessage().contains("max-execute-time of PT0.3S"), warning.getMessage());
            assertNotNull(warning.getThrown(), "the stack trace is attached");
            assertTrue(Arrays.stream(warning.getThrown().getStackTrace())
                    .anyMatch(frame -> frame.getMethodName().equals("sleepInsideSlowConsumer")),
                    "the stack shows where the consumer is");
        }
    }

    @Test
    void a_global_key_beats_the_annotation_and_a_per_queue_key_beats_the_global_key() {
        assertEquals(Duration.ofHours(2), runtime.options("slow").retention(), "global beats @Consumer(retention)");
        assertEquals(Duration.ZERO, runtime.options("idempotent").retention(), "per-queue beats global");
        assertEquals(3, runtime.options("doomed").maxAttempts(), "per-queue beats @Consumer(maxAttempts)");
        assertEquals(Duration.ofMillis(200), runtime.options("typed").pollInterval(), "global beats the default");
    }

    @Test
    void an_environment_variable_sets_a_per_queue_key() {
        // server.env sets JOBQUEUE_QUEUE_SLOW_MAX_ATTEMPTS=7, MicroProfile Config's form of
        // jobqueue.queue.slow.max-attempts.
        assertEquals(7, runtime.options("slow").maxAttempts());
    }

    @Test
    void a_queue_disabled_on_this_node_is_not_consumed_here_but_accepts_jobs() throws Exception {
        JobId id = jobs.put("disabled", "for another node");

        Thread.sleep(2_000); // ten poll intervals
        assertEquals(List.of(), calls.attemptsOf(id));
        assertEquals("PENDING", table.state(id));
        table.delete(id);
        assertNull(table.row(id));
    }

    private static Confirmation sampleConfirmation() {
        return new Confirmation(UUID.randomUUID().toString(), BigDecimal.ONE,
                List.of(new Confirmation.Line("pen", 1)), java.time.Instant.parse("2026-01-01T00:00:00Z"));
    }

    /**
     * Puts a job on the paused queue, so that it is committed PENDING and not started, then tampers with its row
     * in a transaction of its own, as another node or a corruption would, and resumes the queue.
     */
    private JobId putPaused(String queue, Object payload, Consumer<JobId> tamper) {
        admin.pause(queue);
        try {
            JobId id = jobs.put(queue, payload);
            tamper.accept(id);
            return id;
        } finally {
            admin.resume(queue);
        }
    }
}
