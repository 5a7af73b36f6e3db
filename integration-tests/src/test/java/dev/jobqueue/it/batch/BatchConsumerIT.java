package dev.jobqueue.it.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.JobAdmin;
import dev.jobqueue.JobAdmin.JobSummary;
import dev.jobqueue.JobId;
import dev.jobqueue.JobQueue;
import dev.jobqueue.it.Await;
import dev.jobqueue.it.Deployments;
import dev.jobqueue.it.app.PlacedOrder;
import jakarta.annotation.Resource;
import jakarta.inject.Inject;
import jakarta.transaction.UserTransaction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A batch consumer ({@code jobsPerCall}) is called with several jobs at once, and their database effects commit
 * exactly once, together with their DONE marks. A job that fails its call is isolated by running the call's jobs
 * again in halves: it fails alone, with its own attempts counted, and every other job's effect commits once. A
 * consumer of one job per call with {@code jobsPerTransaction} runs several waiting jobs in one transaction, a
 * call each, with the same guarantees.
 */
@ExtendWith(ArquillianExtension.class)
class BatchConsumerIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @Deployment
    static WebArchive app() {
        return Deployments.war("batch", "batch", BatchConsumers.class, BatchCalls.class, SavedOrders.class,
                PlacedOrder.class, GroupedConsumer.class, TransactionTag.class);
    }

    @Inject
    JobQueue jobs;

    @Inject
    JobAdmin admin;

    @Inject
    BatchCalls calls;

    @Inject
    SavedOrders orders;

    @Resource(lookup = "java:comp/UserTransaction")
    UserTransaction transaction;

    @Test
    void a_batch_consumer_takes_several_jobs_per_call_and_each_effect_commits_once() throws Exception {
        String tag = "b-" + UUID.randomUUID().toString().substring(0, 8) + "-";
        List<JobId> ids = put(tag, 200, -1);

        assertTrue(Await.until(() -> states(ids, "DONE") == 200, WAIT), "all 200 jobs DONE");
        assertEquals(200, orders.count(tag), "one saved order per job, no more");
        List<List<String>> tagged = calls.callsOf(tag);
        int largest = tagged.stream().mapToInt(List::size).max().orElse(0);
        assertTrue(largest > 1, "calls took several jobs: " + sizes(tagged));
        assertTrue(largest <= BatchConsumers.JOBS_PER_CALL, "no call took more than jobsPerCall: " + sizes(tagged));
        assertEquals(200, tagged.stream().mapToInt(List::size).sum(), "each job was in exactly one call");
        assertTrue(calls.contextsMatched(), "each call had one context per payload");
        assertTrue(ids.stream().allMatch(id -> summary(id).attempts() == 1), "each job took one attempt");
    }

    @Test
    void a_failing_job_fails_alone_and_every_other_job_of_its_batch_commits_once() throws Exception {
        String tag = "p-" + UUID.randomUUID().toString().substring(0, 8) + "-";
        List<JobId> ids = put(tag, 60, 30);
        JobId poison = ids.get(30);

        assertTrue(Await.until(() -> "FAILED".equals(summary(poison).state()) && states(ids, "DONE") == 59, WAIT),
                "the poison job FAILED and the other 59 DONE");
        assertEquals(59, orders.count(tag), "each other job's order saved once");
        assertEquals(2, summary(poison).attempts(), "the poison job used its 2 attempts");
        assertTrue(summary(poison).lastError().contains("cannot save order poison-" + tag + "30"),
                summary(poison).lastError());
        assertTrue(ids.stream().filter(id -> !id.equals(poison)).allMatch(id -> summary(id).attempts() == 1),
                "no other job had an attempt counted: their failed calls were not attempts of theirs");
        List<List<String>> poisoned = calls.callsOf(tag).stream().filter(call -> call.contains("poison-" + tag + "30"))
                .toList();
        assertTrue(poisoned.stream().anyMatch(call -> call.size() == 1), "the poison job ran alone: " + sizes(poisoned));
    }

    @Test
    void jobs_per_transaction_runs_waiting_jobs_in_one_transaction_a_call_each_and_each_effect_commits_once()
            throws Exception {
        String tag = "g-" + UUID.randomUUID().toString().substring(0, 8) + "-";
        List<JobId> ids = put("grouped-orders", tag, 200, -1);

        assertTrue(Await.until(() -> states(ids, "DONE") == 200, WAIT), "all 200 jobs DONE");
        assertEquals(200, orders.count(tag), "one saved order per job, no more");
        Map<String, List<String>> transactions = calls.transactionsOf(tag);
        List<Integer> sizes = transactions.values().stream().map(List::size).toList();
        assertEquals(200, transactions.values().stream().flatMap(List::stream).distinct().count(),
                "every job called");
        assertEquals(200, sizes.stream().mapToInt(Integer::intValue).sum(), "each job called once: " + sizes);
        assertTrue(sizes.stream().anyMatch(size -> size > 1), "transactions ran several jobs: " + sizes);
        assertTrue(sizes.stream().allMatch(size -> size <= GroupedConsumer.JOBS_PER_TRANSACTION),
                "none ran more than jobsPerTransaction: " + sizes);
        assertTrue(ids.stream().allMatch(id -> summary(id).attempts() == 1), "each job took one attempt");
    }

    @Test
    void a_failing_call_in_a_shared_transaction_fails_alone_and_every_other_job_commits_once() throws Exception {
        String tag = "q-" + UUID.randomUUID().toString().substring(0, 8) + "-";
        List<JobId> ids = put("grouped-orders", tag, 60, 30);
        JobId poison = ids.get(30);

        assertTrue(Await.until(() -> "FAILED".equals(summary(poison).state()) && states(ids, "DONE") == 59, WAIT),
                "the poison job FAILED and the other 59 DONE");
        assertEquals(59, orders.count(tag), "each other job's order saved once, though some calls ran again");
        assertEquals(2, summary(poison).attempts(), "the poison job used its 2 attempts");
        assertTrue(summary(poison).lastError().contains("cannot save order poison-" + tag + "30"),
                summary(poison).lastError());
        assertTrue(ids.stream().filter(id -> !id.equals(poison)).allMatch(id -> summary(id).attempts() == 1),
                "no other job had an attempt counted");
        assertTrue(calls.transactionsOf(tag).values().stream().anyMatch(List.of("poison-" + tag + "30")::equals),
                "the poison job ran alone in a transaction: " + calls.transactionsOf(tag).values());
    }

    @Test
    void a_batch_that_asks_for_a_backoff_is_called_once_and_its_jobs_wait_with_their_attempts_not_counted()
            throws Exception {
        String tag = "backoff-" + UUID.randomUUID().toString().substring(0, 8) + "-";
        // Put while the queue is paused, so that no job starts alone on put and the first calls take several.
        admin.pause("batch-orders");
        List<JobId> ids = put(tag, 20, -1);
        admin.resume("batch-orders");
        try {
            assertTrue(Await.until(() -> !calls.backedOff(tag).isEmpty(), WAIT), "a call backed off");
            Thread.sleep(3_000);

            List<String> backedOff = calls.backedOff(tag);
            List<List<String>> made = calls.callsOf(tag);
            assertEquals(1, made.stream().filter(call -> call.stream().anyMatch(backedOff::contains)).count(),
                    "the call that backed off was not split and made again in 3 s: " + made);
            assertEquals(states(ids, "DONE"), orders.count(tag), "the call's writes rolled back; each DONE job's stayed");
            List<JobSummary> waiting = ids.stream().map(this::summary).filter(job -> job.state().equals("PENDING"))
                    .toList();
            assertTrue(backedOff.stream().allMatch(id -> waiting.stream().anyMatch(job -> id.equals(payload(job)))),
                    "the call's jobs wait for the backoff's end, with the claimed jobs not started: " + waiting);
            assertTrue(waiting.stream().allMatch(job -> job.attempts() == 0), "their attempts not counted: " + waiting);
        } finally {
            admin.resume("batch-orders");
        }
        assertTrue(Await.until(() -> states(ids, "DONE") == 20, WAIT), "all 20 DONE once the backoff is over");
        assertEquals(20, orders.count(tag));
    }

    /** The order id a job carries. */
    private String payload(JobSummary job) {
        return admin.job(job.id()).orElseThrow().payload().replace("\"", "");
    }

    private List<JobId> put(String tag, int count, int poisonAt) throws Exception {
        return put("batch-orders", tag, count, poisonAt);
    }

    /** Puts {@code count} jobs in one transaction; the one at {@code poisonAt}, if any, has a poison payload. */
    private List<JobId> put(String queue, String tag, int count, int poisonAt) throws Exception {
        List<JobId> ids = new ArrayList<>();
        transaction.begin();
        for (int i = 0; i < count; i++) {
            ids.add(jobs.put(queue, (i == poisonAt ? "poison-" : "") + tag + i));
        }
        transaction.commit();
        return ids;
    }

    private long states(List<JobId> ids, String state) {
        return ids.stream().filter(id -> state.equals(summary(id).state())).count();
    }

    private JobSummary summary(JobId id) {
        return admin.job(id).orElseThrow().summary();
    }

    private static List<Integer> sizes(List<List<String>> calls) {
        return calls.stream().map(List::size).toList();
    }
}
