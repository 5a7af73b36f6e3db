package dev.jobqueue.it.bulk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.DuplicatePolicy;
import dev.jobqueue.JobId;
import dev.jobqueue.JobOptions;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobRequest;
import dev.jobqueue.it.Await;
import dev.jobqueue.it.Deployments;
import dev.jobqueue.it.app.PlacedOrder;
import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link JobQueue#putAll}: every promise of a put, for each job of one call. */
@ExtendWith(ArquillianExtension.class)
class PutAllIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final JobOptions LATER = JobOptions.defaults().delay(Duration.ofHours(1));

    @Deployment
    static WebArchive app() {
        return Deployments.war("put-all", "bulk", BulkPuts.class, BulkConsumers.class, BulkRuns.class, PlacedOrder.class);
    }

    @EJB
    BulkPuts puts;

    @Inject
    BulkRuns runs;

    @Test
    void payloads_put_in_one_transaction_run_once_each_and_their_ids_come_back_in_order() throws Exception {
        String prefix = unique("many");
        List<String> payloads = IntStream.range(0, 2_500).mapToObj(i -> prefix + "-" + i).toList();

        List<JobId> ids = puts.placeOrder(prefix, payloads, JobOptions.defaults());

        assertEquals(2_500, new HashSet<>(ids).size(), "one new job per payload");
        for (int i : new int[] {0, 999, 1_000, 2_499}) {
            assertEquals("\"" + payloads.get(i) + "\"", puts.payload(ids.get(i)), "the id at index " + i);
        }
        assertTrue(Await.until(() -> runs.startedWith(prefix + "-").size() >= 2_500, WAIT),
                "started: " + runs.startedWith(prefix + "-").size());
        assertEquals(new HashSet<>(payloads), new HashSet<>(runs.startedWith(prefix + "-")));
        assertEquals(2_500, runs.startedWith(prefix + "-").size(), "no job ran twice");
        assertTrue(puts.orderExists(prefix));
    }

    @Test
    void large_payloads_are_split_over_several_inserts_and_keep_their_order() {
        String prefix = unique("large");
        List<String> payloads = IntStream.range(0, 12).mapToObj(i -> prefix + "-" + i + "-" + "x".repeat(900_000))
                .toList();

        List<JobId> ids = puts.placeOrder(prefix, payloads, LATER);

        assertEquals(12, puts.jobsWithPayloadPrefix(prefix));
        for (int i = 0; i < 12; i++) {
            assertTrue(puts.payload(ids.get(i)).startsWith("\"" + prefix + "-" + i + "-x"), "the id at index " + i);
        }
    }

    @Test
    void a_put_all_in_a_transaction_that_rolls_back_leaves_no_job() {
        String prefix = unique("rolled-back");

        assertThrows(EJBException.class, () -> puts.placeOrderThenFail(prefix, List.of(prefix + "-a", prefix + "-b")));

        assertEquals(0, puts.jobsWithPayloadPrefix(prefix));
        assertFalse(puts.orderExists(prefix));
    }

    @Test
    void a_null_payload_is_refused_by_its_index_nothing_is_written_and_the_transaction_commits() {
        String prefix = unique("bad");

        String refusal = puts.placeOrderTrying(prefix, Arrays.asList(prefix + "-a", prefix + "-b", null), LATER);

        assertTrue(refusal.startsWith("JQ010") && refusal.contains("index 2"), refusal);
        assertEquals(0, puts.jobsWithPayloadPrefix(prefix), "none of the call's jobs is written");
        assertTrue(puts.orderExists(prefix), "the caller's transaction was left to commit");
    }

    @Test
    void jobs_of_one_call_that_share_a_dedupe_key_share_its_first_job() {
        String prefix = unique("shared-key");

        List<JobId> ids = puts.placeOrder(prefix, List.of(prefix + "-a", prefix + "-b", prefix + "-c"),
                LATER.key(prefix));

        assertEquals(1, new HashSet<>(ids).size(), "all three got the first job's id: " + ids);
        assertEquals(1, puts.jobsWithPayloadPrefix(prefix));
        assertEquals("\"" + prefix + "-a\"", puts.payload(ids.get(0)));
    }

    @Test
    void a_replace_in_the_same_call_replaces_the_first_jobs_payload() {
        String prefix = unique("replaced");

        List<JobId> ids = puts.placeOrder(prefix, List.of(prefix + "-a", prefix + "-b"),
                LATER.key(prefix, DuplicatePolicy.REPLACE));

        assertEquals(ids.get(0), ids.get(1));
        assertEquals("\"" + prefix + "-b\"", puts.payload(ids.get(0)));
    }

    @Test
    void a_rejected_key_names_its_index_and_rolls_back_what_the_call_wrote_before_it() {
        String prefix = unique("rejected");

        String refusal = puts.placeOrderTrying(prefix, List.of(prefix + "-a", prefix + "-b"),
                LATER.key(prefix, DuplicatePolicy.REJECT));

        assertTrue(refusal.startsWith("JQ042") && refusal.contains("index 1") && refusal.contains("rolled back"),
                refusal);
        assertEquals(0, puts.jobsWithPayloadPrefix(prefix), "the first job is rolled back with the transaction");
        assertFalse(puts.orderExists(prefix), "so is the order saved beside it");
    }

    @Test
    void a_request_waits_for_earlier_requests_of_the_same_call() throws Exception {
        String prefix = unique("chain");
        JobRequest first = JobRequest.of("hold-" + prefix + "-1");
        JobRequest second = JobRequest.of(prefix + "-2").after(first);
        JobRequest third = JobRequest.of(prefix + "-3").after(first, second);

        List<JobId> ids = puts.placeOrder(prefix, List.of(first, second, third));

        assertTrue(Await.until(() -> runs.startedWith("hold-" + prefix).size() == 1, WAIT), "the first job started");
        assertEquals("WAITING", puts.state(ids.get(1)));
        assertEquals("WAITING", puts.state(ids.get(2)));
        runs.release();
        assertTrue(Await.until(() -> "DONE".equals(puts.state(ids.get(2))), WAIT), "the third job finished");
        assertEquals(List.of(prefix + "-2", prefix + "-3"), runs.startedWith(prefix));
    }

    @Test
    void a_request_that_waits_for_one_not_earlier_in_the_call_is_refused_before_anything_is_written() {
        String prefix = unique("not-earlier");
        JobRequest elsewhere = JobRequest.of(prefix + "-elsewhere");
        JobRequest waiting = JobRequest.of(prefix + "-waiting").after(elsewhere);

        EJBException error = assertThrows(EJBException.class, () -> puts.placeOrder(prefix, List.of(waiting)));

        assertTrue(String.valueOf(rootMessage(error)).contains("index 0"), rootMessage(error));
        assertEquals(0, puts.jobsWithPayloadPrefix(prefix));
    }

    @Test
    void jobs_of_one_ordering_key_run_one_at_a_time_in_the_order_of_the_list() throws Exception {
        String prefix = unique("ordered");
        List<String> payloads = IntStream.range(0, 40).mapToObj(i -> prefix + "-" + i).toList();

        puts.placeOrder(prefix, payloads, JobOptions.defaults().orderingKey(prefix));

        assertTrue(Await.until(() -> runs.startedWith(prefix).size() == 40, WAIT));
        assertEquals(payloads, runs.startedWith(prefix));
    }

    @Test
    void a_group_put_in_one_call_finishes_once_with_all_its_jobs() throws Exception {
        String prefix = unique("grouped");

        puts.placeOrder(prefix, IntStream.range(0, 30).mapToObj(i -> prefix + "-" + i).toList(),
                JobOptions.defaults().group(prefix));

        assertTrue(Await.until(() -> !runs.groupsFinished(prefix).isEmpty(), WAIT), "the group finished");
        Thread.sleep(500);
        assertEquals(1, runs.groupsFinished(prefix).size());
        assertEquals(30, runs.groupsFinished(prefix).get(0).done());
    }

    private static String unique(String name) {
        return name + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static String rootMessage(Throwable error) {
        Throwable cause = error;
        while (cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause.getMessage();
    }
}
