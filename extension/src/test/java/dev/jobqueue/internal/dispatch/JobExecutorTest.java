package dev.jobqueue.internal.dispatch;

import static dev.jobqueue.internal.dispatch.ExecutorRig.FIRST_BACKOFF;
import static dev.jobqueue.internal.dispatch.ExecutorRig.T0;
import static dev.jobqueue.internal.dispatch.ExecutorRig.options;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.JobFailed;
import dev.jobqueue.JobRetried;
import dev.jobqueue.QueueBackoffException;
import dev.jobqueue.internal.config.QueueOptions;
import dev.jobqueue.internal.fixtures.FakeFinishStore;
import dev.jobqueue.internal.fixtures.LogCapture;
import dev.jobqueue.internal.fixtures.RecordingEvent;
import dev.jobqueue.internal.fixtures.TestOptions;
import dev.jobqueue.internal.store.ClaimedJob;
import dev.jobqueue.internal.store.Finish;
import jakarta.transaction.RollbackException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What one attempt of a consumer of one job per call becomes: DONE, a retry at the backoff's time, or FAILED;
 * with the store, the consumer and the transaction's rollback-only flag played by the test. No server, no
 * database, no sleep. {@link BatchCallTest} covers a batch consumer's calls.
 */
class JobExecutorTest {

    private final ExecutorRig rig = new ExecutorRig();
    private final FakeFinishStore store = rig.store;
    private final ExecutorRig.ScriptedInvoker consumer = rig.consumer;
    private final ExecutorRig.DirectTransactions transactions = rig.transactions;
    private final ExecutorRig.RecordingDispatcher dispatcher = rig.dispatcher;
    private final RecordingEvent<JobFailed> failures = rig.failures;
    private final RecordingEvent<JobRetried> retries = rig.retries;
    private final JobExecutor executor = rig.executor;

    private static ClaimedJob attempt(int attempt, String payload) {
        return new ClaimedJob("0190a0b0-0000-7000-8000-000000000001", "reports", payload, attempt,
                T0.minusSeconds(60), T0.minusSeconds(5), "lease-" + attempt, null, null, 0, null);
    }

    private static ClaimedJob attempt(int attempt) {
        return attempt(attempt, "{\"name\":\"march\"}");
    }

    private Outcome run(ClaimedJob job, QueueOptions options) {
        return executor.execute(job, ReportsConsumer.method(), options);
    }

    @Test
    void a_consumer_that_returns_makes_its_job_done_in_the_transaction_it_ran_in() {
        assertEquals(Outcome.DONE, run(attempt(1), options(3)));

        assertEquals(List.of(new ReportsConsumer.Report("march")), consumer.payloads, "the payload, deserialised by JSON-B");
        assertEquals(1, transactions.begun, "one transaction for the consumer and the DONE");
        assertEquals("DONE", store.last().state());
        assertEquals(1, consumer.contexts.get(0).attempt());
    }

    @Test
    void a_failed_attempt_runs_again_after_the_backoff_for_its_attempt_number() {
        consumer.throwing = new IllegalStateException("the mail server said no");

        assertEquals(Outcome.RETRY, run(attempt(1), options(5)));
        assertEquals(T0.plus(FIRST_BACKOFF), store.last().runAt(), "10 s after the first attempt");

        assertEquals(Outcome.RETRY, run(attempt(3), options(5)));
        assertEquals(T0.plus(FIRST_BACKOFF.multipliedBy(4)), store.last().runAt(), "40 s after the third");
        assertTrue(store.last().error().contains("the mail server said no"), store.last().error());

        assertEquals(List.of(T0.plusSeconds(10), T0.plusSeconds(40)), dispatcher.retryWakes,
                "the queue is woken when each retry is due");
        JobRetried retried = retries.fired.get(1);
        assertEquals(3, retried.attempt());
        assertEquals(T0.plus(Duration.ofSeconds(40)), retried.nextRunAt());
        assertTrue(failures.fired.isEmpty());
    }

    @Test
    void a_commit_that_loses_its_connection_hands_the_job_back_with_the_attempt_not_counted_and_no_error() {
        transactions.failingCommit = new RollbackException("commit failed");
        transactions.failingCommit.initCause(new SQLException("An I/O error occurred", "08006"));

        assertEquals(Outcome.HANDED_BACK, run(attempt(3), options(3)));

        assertEquals(List.of(attempt(3)), rig.leases.released, "released by its lease, the attempt given back");
        assertEquals(List.of(), store.recorded, "no DONE, no error, no retry time");
        assertTrue(failures.fired.isEmpty() && retries.fired.isEmpty(), "no event: the job did not fail");
        assertEquals(List.of("reports"), dispatcher.rewound, "its queue is polled from its first due job, so the"
                + " job runs again at once");
    }

    @Test
    void a_job_whose_commit_loses_its_connection_again_and_again_counts_its_attempt_with_jq046_after_three_hand_backs() {
        transactions.failingCommit = new RollbackException("commit failed");
        transactions.failingCommit.initCause(new SQLException("terminating connection due to administrator command",
                "57P01"));

        for (int handBack = 1; handBack <= 3; handBack++) {
            assertEquals(Outcome.HANDED_BACK, run(attempt(1), options(2)), "hand-back " + handBack + " is free");
        }
        assertEquals(Outcome.RETRY, run(attempt(1), options(2)), "the fourth counts the attempt");
        assertTrue(store.last().error().contains("JQ046"), store.last().error());
        assertEquals(T0.plus(FIRST_BACKOFF), store.last().runAt(), "after the backoff, as for any failure");
        assertEquals(1, retries.fired.size(), "JobRetried fires");

        for (int handBack = 1; handBack <= 3; handBack++) {
            assertEquals(Outcome.HANDED_BACK, run(attempt(2), options(2)), "the next attempt has its own hand-backs");
        }
        assertEquals(Outcome.FAILED, run(attempt(2), options(2)), "the last attempt gives up");
        assertEquals(1, failures.fired.size(), "JobFailed fires once");
        assertEquals(8, consumer.calls.size(), "the consumer was called a bounded number of times");
    }

    @Test
    void a_backoff_reason_or_an_error_with_line_breaks_cannot_forge_a_log_line() {
        try (LogCapture log = new LogCapture(JobExecutor.class.getName())) {
            consumer.throwing = new QueueBackoffException(Duration.ofSeconds(3), "partner: 429\nSEVERE FORGED-LINE: a");
            assertEquals(Outcome.BACKED_OFF, run(attempt(1), options(3)));
            consumer.throwing = new IllegalStateException("no\r\nSEVERE FORGED-LINE: b");
            assertEquals(Outcome.RETRY, run(attempt(1), options(3)));
            assertEquals(Outcome.FAILED, run(attempt(3), options(3)));

            List<String> lines = log.messages();
            assertEquals(3, lines.size(), "the backoff, the retry and the give-up are logged: " + lines);
            assertTrue(lines.stream().noneMatch(line -> line.contains("\n") || line.contains("\r")),
                    "each on one line, its breaks escaped: " + lines);
            assertTrue(lines.get(0).contains("partner: 429\\nSEVERE FORGED-LINE: a"), lines.get(0));
        }
    }

    @Test
    void hand_backs_of_a_job_more_than_ten_minutes_ago_do_not_count_against_it() {
        transactions.failingCommit = new RollbackException("commit failed");
        transactions.failingCommit.initCause(new SQLException("An I/O error occurred", "08006"));
        for (int handBack = 1; handBack <= 3; handBack++) {
            assertEquals(Outcome.HANDED_BACK, run(attempt(1), options(2)));
        }

        rig.clock.advance(LostCompletions.WINDOW.plusSeconds(1));

        assertEquals(Outcome.HANDED_BACK, run(attempt(1), options(2)), "a failover later is no fault of the job");
    }

    @Test
    void a_non_transactional_job_whose_done_loses_its_connection_is_handed_back_not_counted_as_failed() {
        // A job of an ordering key: its DONE is written at once, after the consumer returned, not in a batch.
        ClaimedJob ordered = new ClaimedJob("0190a0b0-0000-7000-8000-000000000002", "reports", "{\"name\":\"may\"}",
                3, T0.minusSeconds(60), T0.minusSeconds(5), "lease-3", null, "customer-7", 0, null);
        store.outage = new IllegalStateException(new SQLException("An I/O error occurred", "08006"));

        assertEquals(Outcome.HANDED_BACK, run(ordered, ExecutorRig.options(3, false, List.of())));

        assertEquals(List.of(ordered), rig.leases.released, "released by its lease, the attempt given back");
        assertTrue(failures.fired.isEmpty() && retries.fired.isEmpty(), "the consumer did not fail");
    }

    @Test
    void a_consumer_whose_own_statement_loses_its_connection_has_failed_an_attempt() {
        consumer.throwing = new SQLException("An I/O error occurred", "08006");

        assertEquals(Outcome.RETRY, run(attempt(1), options(3)));

        assertTrue(rig.leases.released.isEmpty());
        assertEquals("PENDING", store.last().state());
    }

    @Test
    void the_last_attempt_that_fails_makes_the_job_failed_and_fires_one_event() {
        consumer.throwing = new IllegalStateException("still broken");

        assertEquals(Outcome.FAILED, run(attempt(3), options(3)));

        assertEquals("FAILED", store.last().state());
        assertEquals(1, failures.fired.size());
        assertTrue(failures.fired.get(0).error().contains("still broken"));
        assertTrue(retries.fired.isEmpty());
    }

    @Test
    void an_attempt_past_the_limit_whose_lease_expired_gives_up_without_calling_the_consumer() {
        assertEquals(Outcome.FAILED, run(attempt(4), options(3)));

        assertTrue(consumer.payloads.isEmpty());
        assertTrue(store.last().error().contains("gave up after 3 attempts"), store.last().error());
    }

    @Test
    void a_transaction_marked_rollback_only_is_a_failed_attempt_not_a_done_job() {
        consumer.during = () -> transactions.rollbackOnly = true;

        assertEquals(Outcome.RETRY, run(attempt(1), options(3)));

        assertEquals("PENDING", store.last().state());
        assertTrue(store.last().error().contains("JQ040"), store.last().error());
    }

    @Test
    void an_exception_the_queue_counts_as_success_makes_the_job_done() {
        consumer.throwing = new UnsupportedOperationException("already sent");

        Outcome outcome = run(attempt(1), options(3, true, List.of(UnsupportedOperationException.class)));

        assertEquals(Outcome.DONE, outcome);
        assertEquals("DONE", store.last().state());
    }

    @Test
    void a_worker_that_lost_its_lease_changes_nothing_and_fires_nothing() {
        store.leaseLost = true;
        assertEquals(Outcome.LEASE_LOST, run(attempt(1), options(3)));

        consumer.throwing = new IllegalStateException("failed too");
        assertEquals(Outcome.LEASE_LOST, run(attempt(1), options(3)));
        assertEquals(Outcome.LEASE_LOST, run(attempt(3), options(3)));

        assertTrue(store.recorded.isEmpty());
        assertTrue(retries.fired.isEmpty());
        assertTrue(failures.fired.isEmpty());
    }

    @Test
    void an_outcome_the_database_cannot_take_is_left_for_the_lease_to_expire() {
        consumer.throwing = new IllegalStateException("failed");
        store.outage = new IllegalStateException("connection refused");

        assertEquals(Outcome.NOT_RECORDED, run(attempt(1), options(3)));
        assertTrue(retries.fired.isEmpty());
    }

    @Test
    void a_payload_that_does_not_fit_the_consumer_fails_at_once_naming_the_method() {
        Outcome outcome = run(attempt(1, "{\"name\": [1, 2]}"), options(5));

        assertEquals(Outcome.FAILED, outcome);
        assertTrue(consumer.payloads.isEmpty());
        String error = store.last().error();
        assertTrue(error.startsWith("JQ012") && error.contains("ReportsConsumer#handle(Report)"), error);
    }

    @Test
    void with_strict_payload_a_field_the_type_does_not_have_fails_the_job_at_once_naming_it() {
        QueueOptions strict = TestOptions.queue("reports").maxAttempts(5).strictPayload(true).build();

        assertEquals(Outcome.FAILED, run(attempt(1, "{\"name\":\"march\",\"month\":3}"), strict));
        assertTrue(consumer.payloads.isEmpty());
        String error = store.last().error();
        assertTrue(error.startsWith("JQ044") && error.contains("unknown field 'month'"), error);

        assertEquals(Outcome.DONE, run(attempt(1, "{}"), strict), "a left-out field that reads as null is not missing");

        assertEquals(Outcome.DONE, run(attempt(1, "{\"name\":\"march\",\"month\":3}"), options(5)),
                "without strict-payload an unknown field is ignored");
    }

    @Test
    void a_non_transactional_consumer_returns_succeeded_and_its_done_is_written_later_in_a_batch() {
        assertEquals(Outcome.SUCCEEDED, run(attempt(1), options(3, false, List.of())));
        assertEquals(0, transactions.begun);
        assertNull(store.last(), "nothing written yet");

        ClaimedJob other = new ClaimedJob("0190a0b0-0000-7000-8000-000000000002", "reports", "{}", 1, T0, T0,
                "lease-1", null, null, 0, null);
        executor.recordSucceeded(List.of(attempt(1), other), options(3, false, List.of()));
        assertEquals(List.of(List.of(attempt(1).id(), other.id())), store.batches, "one batch for both");
    }

    @Test
    void finishing_a_job_wakes_the_queues_of_the_jobs_it_released() {
        store.finish = new Finish(Set.of("invoices"), List.of(), Map.of());

        run(attempt(1), options(3));

        assertEquals(List.of("invoices"), dispatcher.rewound, "read from its first due job: the released job's due"
                + " time may be before the last claim's");
        assertFalse(dispatcher.rewound.contains("reports"));
    }
}
