package dev.jobqueue.internal.dispatch;

import static dev.jobqueue.internal.dispatch.ExecutorRig.T0;
import static dev.jobqueue.internal.dispatch.ExecutorRig.options;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.JobFailed;
import dev.jobqueue.JobRetried;
import dev.jobqueue.QueueBackoffException;
import dev.jobqueue.internal.fixtures.FakeFinishStore;
import dev.jobqueue.internal.fixtures.RecordingEvent;
import dev.jobqueue.internal.store.ClaimedJob;
import jakarta.transaction.RollbackException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How jobs run together in one transaction: a batch consumer's in one call, a consumer of one job per call's
 * (jobs-per-transaction) in a call each; a failing transaction halved until its failing job fails alone, and a
 * job whose lease was lost leaving while the others run again once. The store, the consumer and the
 * transaction's rollback-only flag are played by the test.
 */
class BatchCallTest {

    private final ExecutorRig rig = new ExecutorRig();
    private final FakeFinishStore store = rig.store;
    private final ExecutorRig.ScriptedInvoker consumer = rig.consumer;
    private final ExecutorRig.DirectTransactions transactions = rig.transactions;
    private final RecordingEvent<JobFailed> failures = rig.failures;
    private final RecordingEvent<JobRetried> retries = rig.retries;

    /** Jobs 0 to count - 1 of a batch consumer, each with its own id, lease and payload {@code {"name":"job-N"}}. */
    private static List<ClaimedJob> jobs(int count) {
        List<ClaimedJob> jobs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            jobs.add(new ClaimedJob(String.format("0190a0b0-0000-7000-8000-%012d", i), "reports",
                    "{\"name\":\"job-" + i + "\"}", 1, T0.minusSeconds(60), T0.minusSeconds(5), "lease-" + i, null,
                    null, 0, null));
        }
        return jobs;
    }

    private List<Outcome> runTogether(List<ClaimedJob> jobs) {
        return rig.executor.executeTogether(jobs, ReportsConsumer.batchMethod(), options(3));
    }

    private List<Outcome> runInOneTransaction(List<ClaimedJob> jobs) {
        return rig.executor.executeTogether(jobs, ReportsConsumer.method(), options(3));
    }

    private static List<ReportsConsumer.Report> reports(int... numbers) {
        return java.util.Arrays.stream(numbers).mapToObj(n -> new ReportsConsumer.Report("job-" + n)).toList();
    }

    @Test
    void jobs_of_a_single_job_consumer_run_in_one_transaction_with_a_call_each_in_order_and_each_done_once() {
        List<ClaimedJob> jobs = jobs(4);

        assertEquals(Collections.nCopies(4, Outcome.DONE), runInOneTransaction(jobs));

        assertEquals(List.of(1, 1, 1, 1), consumer.calls.stream().map(List::size).toList(), "a call per job");
        assertEquals(reports(0, 1, 2, 3), consumer.payloads, "in the order given");
        assertEquals(1, transactions.begun, "one transaction, one commit");
        assertEquals(jobs.stream().map(ClaimedJob::id).toList(), store.recorded.stream()
                .map(FakeFinishStore.Recorded::id).toList(), "each job marked DONE once, in order");
        assertEquals(jobs.stream().map(ClaimedJob::id).toList(), consumer.contexts.stream()
                .map(context -> context.id().toString()).toList(), "each call gets its own job's context");
    }

    @Test
    void a_failing_call_rolls_back_the_transaction_and_the_jobs_run_again_in_halves_until_it_fails_alone() {
        List<ClaimedJob> jobs = jobs(4);
        consumer.poison = new ReportsConsumer.Report("job-2");

        assertEquals(List.of(Outcome.DONE, Outcome.DONE, Outcome.RETRY, Outcome.DONE), runInOneTransaction(jobs));

        assertEquals(reports(0, 1, 2, 0, 1, 2, 2, 3), consumer.payloads,
                "0-3 stop at 2; 0-1 done; 2-3 stop at 2; 2 fails alone; 3 done");
        assertEquals(List.of(jobs.get(0).id(), jobs.get(1).id(), jobs.get(3).id()), store.recorded.stream()
                .filter(record -> record.state().equals("DONE")).map(FakeFinishStore.Recorded::id).toList(),
                "each other job DONE exactly once");
        assertEquals(List.of(jobs.get(2).id()), store.recorded.stream().filter(record -> record.state()
                .equals("PENDING")).map(FakeFinishStore.Recorded::id).toList(), "only job 2's attempt counted");
    }

    @Test
    void a_call_that_marks_the_shared_transaction_rollback_only_stops_it_and_fails_alone_with_jq040() {
        List<ClaimedJob> jobs = jobs(2);
        ReportsConsumer.Report doomed = new ReportsConsumer.Report("job-0");
        consumer.during = () -> transactions.rollbackOnly |= consumer.calls.get(consumer.calls.size() - 1)
                .contains(doomed);

        assertEquals(List.of(Outcome.RETRY, Outcome.DONE), runInOneTransaction(jobs));

        assertEquals(reports(0, 0, 1), consumer.payloads, "job 1 is not called in a transaction already doomed");
        assertTrue(store.recorded.stream().anyMatch(record -> record.state().equals("PENDING")
                && record.error().contains("JQ040")), "the rollback-only job's error names JQ040: " + store.recorded);
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
    void a_batch_whose_commit_loses_its_connection_is_handed_back_whole_without_halving() {
        List<ClaimedJob> jobs = jobs(8);
        transactions.failingCommit = new RollbackException("commit failed");
        transactions.failingCommit.initCause(new SQLException("An I/O error occurred", "08006"));

        assertEquals(Collections.nCopies(8, Outcome.HANDED_BACK), runTogether(jobs));

        assertEquals(1, consumer.calls.size(), "no job is to blame, so the call is not halved: " + consumer.calls);
        assertEquals(jobs, rig.leases.released, "each released by its lease, its attempt given back");
        assertTrue(failures.fired.isEmpty() && retries.fired.isEmpty());
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
        assertEquals(1, consumer.calls.size(), "no job is left to run again: " + consumer.calls);
        assertTrue(store.recorded.isEmpty(), "no DONE and no failed attempt recorded: " + store.recorded);
        assertTrue(failures.fired.isEmpty() && retries.fired.isEmpty(), "no event for jobs another attempt owns");
    }

    @Test
    void a_job_whose_lease_was_lost_leaves_the_batch_and_the_others_run_again_once_in_one_call() {
        List<ClaimedJob> jobs = jobs(8);
        store.leasesTakenOver.add(jobs.get(5).id());

        List<Outcome> outcomes = runTogether(jobs);

        for (int i = 0; i < 8; i++) {
            assertEquals(i == 5 ? Outcome.LEASE_LOST : Outcome.DONE, outcomes.get(i), "job " + i);
        }
        assertEquals(List.of(8, 7), consumer.calls.stream().map(List::size).toList(),
                "the call of 8 rolls back on job 5's lost lease; the 7 others run again once, together");
        assertFalse(consumer.calls.get(1).contains(new ReportsConsumer.Report("job-5")), "job 5 is not called again");
        assertEquals(jobs.stream().map(ClaimedJob::id).filter(id -> !id.equals(jobs.get(5).id())).toList(),
                store.recorded.stream().map(FakeFinishStore.Recorded::id).toList(),
                "each other job DONE exactly once, and nothing recorded for job 5");
        assertTrue(failures.fired.isEmpty() && retries.fired.isEmpty(), "a lost lease is no failed attempt");
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
    void a_batch_that_asks_for_a_backoff_ends_its_call_and_every_job_goes_back_with_its_attempt_not_counted() {
        List<ClaimedJob> jobs = jobs(8);
        consumer.throwing = new QueueBackoffException(Duration.ofSeconds(30), "partner: 429");

        assertEquals(Collections.nCopies(8, Outcome.BACKED_OFF), runTogether(jobs));

        assertEquals(1, consumer.calls.size(), "the partner sees one call: " + consumer.calls);
        assertEquals(jobs.stream().map(ClaimedJob::id).toList(), store.recorded.stream()
                .filter(record -> record.state().equals("BACKED_OFF")).map(FakeFinishStore.Recorded::id).toList());
        assertTrue(store.recorded.stream().allMatch(record -> T0.plusSeconds(30).equals(record.runAt())),
                "each runs again when the backoff ends: " + store.recorded);
        assertTrue(failures.fired.isEmpty() && retries.fired.isEmpty(), "a backoff is no failed attempt");
    }

    @Test
    void a_backoff_in_a_transaction_of_several_jobs_ends_it_at_the_call_that_asked() {
        List<ClaimedJob> jobs = jobs(4);
        consumer.during = () -> {
            if (consumer.calls.size() == 3) {
                throw new QueueBackoffException(Duration.ofSeconds(30), "partner: 429");
            }
        };

        assertEquals(Collections.nCopies(4, Outcome.BACKED_OFF), runInOneTransaction(jobs));

        assertEquals(reports(0, 1, 2), consumer.payloads, "no call after the one that asked, and none again");
        assertEquals(4, store.recorded.size(), "the DONEs of 0 and 1 rolled back; each job backed off once: "
                + store.recorded);
    }

    @Test
    void a_batch_whose_commit_keeps_losing_its_connection_is_split_until_each_job_counts_its_attempt() {
        List<ClaimedJob> jobs = jobs(4);
        transactions.failingCommit = new RollbackException("commit failed");
        transactions.failingCommit.initCause(new SQLException("An I/O error occurred", "08006"));
        for (int handBack = 1; handBack <= 3; handBack++) {
            assertEquals(Collections.nCopies(4, Outcome.HANDED_BACK), runTogether(jobs), "hand-back " + handBack);
        }
        consumer.calls.clear();

        assertEquals(Collections.nCopies(4, Outcome.RETRY), runTogether(jobs));

        assertEquals(List.of(4, 2, 1, 1, 2, 1, 1), consumer.calls.stream().map(List::size).toList(),
                "split, not handed back whole for ever");
        assertTrue(store.recorded.stream().allMatch(record -> record.error().contains("JQ046")), store.recorded.toString());
        assertEquals(4, retries.fired.size());
    }

    @Test
    void a_call_of_several_jobs_that_fails_while_the_node_stops_calls_none_of_them_again() {
        List<ClaimedJob> jobs = jobs(4);
        consumer.poison = new ReportsConsumer.Report("job-2");
        rig.dispatcher.stoppingNow = true;

        assertEquals(Collections.nCopies(4, Outcome.HANDED_BACK), runTogether(jobs));

        assertEquals(1, consumer.calls.size(), "no split, no call again: " + consumer.calls);
        assertEquals(jobs, rig.leases.released, "each handed back by its lease, its attempt not counted");
        assertTrue(store.recorded.isEmpty(), store.recorded.toString());
    }
}
