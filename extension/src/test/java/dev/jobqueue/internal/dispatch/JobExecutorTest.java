package dev.jobqueue.internal.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.JobContext;
import dev.jobqueue.JobFailed;
import dev.jobqueue.JobRetried;
import dev.jobqueue.internal.config.Backoff;
import dev.jobqueue.internal.config.QueueOptions;
import dev.jobqueue.internal.consumer.ConsumerMethod;
import dev.jobqueue.internal.fixtures.FakeFinishStore;
import dev.jobqueue.internal.fixtures.RecordingEvent;
import dev.jobqueue.internal.fixtures.SettableClock;
import dev.jobqueue.internal.fixtures.TestOptions;
import dev.jobqueue.internal.metrics.NoopJobMetrics;
import dev.jobqueue.internal.payload.PayloadCodec;
import dev.jobqueue.internal.store.ClaimedJob;
import dev.jobqueue.internal.store.Finish;
import dev.jobqueue.internal.store.Transactions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What one attempt's outcome becomes: DONE, a retry at the backoff's time, or FAILED; with the store, the
 * consumer and the transaction's rollback-only flag played by the test. No server, no database, no sleep.
 */
class JobExecutorTest {

    private static final Instant T0 = Instant.parse("2026-03-01T09:00:00Z");
    private static final Duration FIRST_BACKOFF = Duration.ofSeconds(10);

    /** Plays the consumer: does what the test says, and records the payloads it was called with. */
    static final class ScriptedInvoker extends ConsumerInvoker {
        final List<Object> payloads = new ArrayList<>();
        final List<JobContext> contexts = new ArrayList<>();
        /** The payloads of each call, for a batch consumer. */
        final List<List<Object>> calls = new ArrayList<>();
        Exception throwing;
        /** A payload that makes every call it is in throw, for a batch consumer. */
        Object poison;
        Runnable during = () -> { };

        @Override
        void invoke(ConsumerMethod consumer, List<Object> payloads, List<JobContext> contexts) throws Exception {
            this.payloads.addAll(payloads);
            this.contexts.addAll(contexts);
            calls.add(payloads);
            during.run();
            if (throwing != null) {
                throw throwing;
            }
            if (poison != null && payloads.contains(poison)) {
                throw new IllegalStateException("poison " + poison);
            }
        }
    }

    /** Runs the work directly, as the interceptor would inside a new transaction, and plays its rollback flag. */
    static final class DirectTransactions extends Transactions {
        boolean rollbackOnly;
        int begun;

        @Override
        public <T> T inConsumerTransaction(java.util.concurrent.Callable<T> work) throws Exception {
            begun++;
            rollbackOnly = false;
            return work.call();
        }

        @Override
        public boolean isRollbackOnly() {
            return rollbackOnly;
        }
    }

    /** Records the queues woken after a finish released jobs on them. */
    static final class RecordingDispatcher extends Dispatcher {
        final List<String> woken = new ArrayList<>();
        final List<Instant> retryWakes = new ArrayList<>();

        @Override
        public void wake(String queue) {
            woken.add(queue);
        }

        @Override
        public void wakeWhenRetryDue(String queue, Instant runAt) {
            retryWakes.add(runAt);
        }
    }

    private final SettableClock clock = new SettableClock(T0);
    private final FakeFinishStore store = new FakeFinishStore();
    private final ScriptedInvoker consumer = new ScriptedInvoker();
    private final DirectTransactions transactions = new DirectTransactions();
    private final RecordingDispatcher dispatcher = new RecordingDispatcher();
    private final RecordingEvent<JobFailed> failures = new RecordingEvent<>();
    private final RecordingEvent<JobRetried> retries = new RecordingEvent<>();
    private final JobExecutor executor = new JobExecutor();

    JobExecutorTest() {
        executor.clock = clock;
        executor.invoker = consumer;
        executor.codec = new PayloadCodec();
        executor.store = store;
        executor.transactions = transactions;
        executor.failures = failures;
        executor.retries = retries;
        executor.groupsFinished = new RecordingEvent<>();
        executor.dispatcher = dispatcher;
        executor.metrics = new NoopJobMetrics();
    }

    private static QueueOptions options(int maxAttempts, boolean transactional, List<Class<? extends Throwable>> successOn) {
        return TestOptions.queue("reports").maxAttempts(maxAttempts)
                .backoff(new Backoff.Exponential(FIRST_BACKOFF, 2.0, Duration.ofMinutes(5), 0.0))
                .successOn(successOn).transactional(transactional).build();
    }

    private static QueueOptions options(int maxAttempts) {
        return options(maxAttempts, true, List.of());
    }

    private static ClaimedJob attempt(int attempt, String payload) {
        return new ClaimedJob("0190a0b0-0000-7000-8000-000000000001", "reports", payload, attempt,
                T0.minusSeconds(60), T0.minusSeconds(5), "lease-" + attempt, null, null);
    }

    private static ClaimedJob attempt(int attempt) {
        return attempt(attempt, "{\"name\":\"march\"}");
    }

    private Outcome run(ClaimedJob job, QueueOptions options) {
        return executor.execute(job, ReportsConsumer.method(), options);
    }

    /** Jobs 0 to count - 1 of a batch consumer, each with its own id, lease and payload {@code {"name":"job-N"}}. */
    private static List<ClaimedJob> jobs(int count) {
        List<ClaimedJob> jobs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            jobs.add(new ClaimedJob(String.format("0190a0b0-0000-7000-8000-%012d", i), "reports",
                    "{\"name\":\"job-" + i + "\"}", 1, T0.minusSeconds(60), T0.minusSeconds(5), "lease-" + i, null,
                    null));
        }
        return jobs;
    }

    private List<Outcome> runTogether(List<ClaimedJob> jobs) {
        return executor.executeTogether(jobs, ReportsConsumer.batchMethod(), options(3));
    }

    @Test
    void a_batch_runs_in_one_call_and_one_transaction_that_marks_every_job_done() {
        List<ClaimedJob> jobs = jobs(8);

        assertEquals(Collections.nCopies(8, Outcome.DONE), runTogether(jobs));

        assertEquals(1, consumer.calls.size(), "one call: " + consumer.calls);
        assertEquals(8, consumer.calls.get(0).size());
        assertEquals(1, transactions.begun);
        assertEquals(jobs.stream().map(ClaimedJob::id).toList(), store.recorded.stream().map(FakeFinishStore.Recorded::id)
                .toList(), "each job marked DONE once, in order");
        assertEquals(jobs.stream().map(ClaimedJob::id).toList(), consumer.contexts.stream()
                .map(context -> context.id().toString()).toList(), "each payload's context, in the same order");
    }

    @Test
    void a_failing_job_in_a_batch_is_isolated_by_halving_and_fails_alone_while_the_others_are_done() {
        List<ClaimedJob> jobs = jobs(8);
        consumer.poison = new ReportsConsumer.Report("job-5");

        List<Outcome> outcomes = runTogether(jobs);

        for (int i = 0; i < 8; i++) {
            assertEquals(i == 5 ? Outcome.RETRY : Outcome.DONE, outcomes.get(i), "job " + i);
        }
        assertEquals(List.of(8, 4, 4, 2, 1, 1, 2), consumer.calls.stream().map(List::size).toList(),
                "8 fail; 0-3 done; 4-7 fail; 4-5 fail; 4 done; 5 fails alone; 6-7 done");
        List<FakeFinishStore.Recorded> records = store.recorded;
        assertEquals(7, records.stream().filter(record -> record.state().equals("DONE")).map(FakeFinishStore.Recorded::id)
                .distinct().count(), "each other job DONE exactly once");
        assertEquals(List.of(jobs.get(5).id()), records.stream().filter(record -> record.state().equals("PENDING"))
                .map(FakeFinishStore.Recorded::id).toList(), "only the poison job's attempt is counted as failed");
        assertTrue(records.stream().filter(record -> record.state().equals("PENDING")).allMatch(record ->
                record.error().contains("poison Report[name=job-5]")), "the poison job's own error is recorded: " + records);
    }

    @Test
    void a_batch_whose_leases_another_attempt_took_marks_nothing_done_and_counts_no_attempt() {
        // Another node's attempt took the jobs once their leases expired: the DONE writes, fenced by the
        // lease, match nothing, so the call's transaction must not commit, and nothing is recorded for them.
        store.leaseLost = true;

        List<Outcome> outcomes = runTogether(jobs(4));

        assertEquals(Collections.nCopies(4, Outcome.LEASE_LOST), outcomes);
        assertTrue(store.recorded.isEmpty(), "no DONE and no failed attempt recorded: " + store.recorded);
        assertTrue(failures.fired.isEmpty() && retries.fired.isEmpty(), "no event for jobs another attempt owns");
    }

    @Test
    void a_batch_whose_transaction_is_marked_rollback_only_is_split_like_a_failing_one() {
        List<ClaimedJob> jobs = jobs(4);
        ReportsConsumer.Report poison = new ReportsConsumer.Report("job-0");
        consumer.during = () -> transactions.rollbackOnly = consumer.calls.get(consumer.calls.size() - 1).contains(poison);

        List<Outcome> outcomes = runTogether(jobs);

        assertEquals(List.of(Outcome.RETRY, Outcome.DONE, Outcome.DONE, Outcome.DONE), outcomes);
        assertTrue(store.recorded.stream().anyMatch(record -> record.state().equals("PENDING")
                && record.error().contains("JQ040")), "the rollback-only job's error names JQ040: " + store.recorded);
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
                "lease-1", null, null);
        executor.recordSucceeded(List.of(attempt(1), other), options(3, false, List.of()));
        assertEquals(List.of(List.of(attempt(1).id(), other.id())), store.batches, "one batch for both");
    }

    @Test
    void finishing_a_job_wakes_the_queues_of_the_jobs_it_released() {
        store.finish = new Finish(Set.of("invoices"), List.of(), Map.of());

        run(attempt(1), options(3));

        assertEquals(List.of("invoices"), dispatcher.woken);
        assertFalse(dispatcher.woken.contains("reports"));
    }
}
