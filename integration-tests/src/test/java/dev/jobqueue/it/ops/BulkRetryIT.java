package dev.jobqueue.it.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.it.Deployments;
import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Bulk retries where they meet dedupe keys and dependencies, on every path an operator has (ids, filter, queue),
 * with chunks of 5 jobs ({@code jobqueue.bulk-chunk-size}): two FAILED jobs that share a dedupe key are one retry
 * and one pass-over, never a 500; a FAILED parent and its FAILED children are retried together, whatever chunks
 * they fall in.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class BulkRetryIT {

    private static final String APP = "ops-bulk";
    private static final ProbeClient OPS = new ProbeClient(APP, "BulkRetryIT");
    private static final int CHILDREN = 12;

    @Deployment(testable = false)
    static WebArchive app() {
        return Deployments.war(APP, "ops-bulk", DependentConsumers.class, DependentConsumers.FailingParent.class,
                DependentConsumers.Child.class, OpsProbe.class, OpsProbeApplication.class);
    }

    @Test
    void a_bulk_retry_of_two_failed_jobs_that_share_a_dedupe_key_retries_one_and_passes_the_other_over() throws Exception {
        List<Function<List<String>, HttpResponse<String>>> paths = List.of(
                ids -> OPS.admin("POST", "/jobs/retry", "{\"ids\":[\"" + String.join("\",\"", ids) + "\"]}"),
                ids -> OPS.admin("POST", "/failed/retry?queue=dep-parent", null),
                ids -> OPS.admin("POST", "/queues/dep-parent/retry-failed", null));
        int round = 0;
        for (Function<List<String>, HttpResponse<String>> path : paths) {
            OPS.admin("DELETE", "/queues/dep-parent/failed?olderThan=0s", null);
            String key = "k-" + round++ + "-" + System.nanoTime();
            String first = OPS.probe("/dep-parent/key/" + key);
            OPS.awaitRow(first, "FAILED 1");
            String second = OPS.probe("/dep-parent/key/" + key);
            OPS.awaitRow(second, "FAILED 1");

            JsonObject answer = OPS.json(path.apply(List.of(first, second)));

            assertEquals(1, retried(answer), "path " + round + ": " + answer);
            assertEquals(1, answer.getJsonObject("skippedBecause").getInt("dedupeKeyHeld"), answer.toString());
            OPS.awaitRow(second, "FAILED 1");
            OPS.awaitRow(first, "FAILED 1");
        }
    }

    @Test
    void a_bulk_retry_by_filter_retries_a_parent_and_its_children_across_chunks() throws Exception {
        retriesAParentAndItsChildrenTogether("/failed/retry?queue=dep-parent");
    }

    @Test
    void a_bulk_retry_of_a_queue_retries_a_parent_and_its_children_across_chunks() throws Exception {
        retriesAParentAndItsChildrenTogether("/queues/dep-parent/retry-failed");
    }

    /**
     * A parent that fails for good and {@value #CHILDREN} children of it on its queue, failed with it; the retry
     * runs while the queue is paused, so that the parent cannot fail again before every chunk has been retried.
     */
    private static void retriesAParentAndItsChildrenTogether(String retry) throws Exception {
        OPS.admin("DELETE", "/queues/dep-parent/failed?olderThan=0s", null);
        String parent = OPS.probe("/dep-parent");
        List<String> children = new ArrayList<>();
        for (int i = 0; i < CHILDREN; i++) {
            children.add(OPS.probe("/dep-parent/after/" + parent));
        }
        OPS.awaitRow(parent, "FAILED 1");
        for (String child : children) {
            OPS.awaitRow(child, "FAILED 0");
        }
        assertEquals(204, OPS.admin("POST", "/queues/dep-parent/pause", null).statusCode());
        try {
            JsonObject answer = OPS.json(OPS.admin("POST", retry, null));

            assertEquals(CHILDREN + 1, retried(answer), "the parent and every child: " + answer);
            assertEquals(0, answer.getInt("skipped"), answer.toString());
            assertEquals("PENDING 0", OPS.row(parent));
            for (String child : children) {
                assertEquals("WAITING 0", OPS.row(child), "a child waits for its parent again");
            }
        } finally {
            assertEquals(204, OPS.admin("POST", "/queues/dep-parent/resume", null).statusCode());
        }
        // The parent fails again, and its children fail with it: none waits on it for ever.
        OPS.awaitRow(parent, "FAILED 1");
        for (String child : children) {
            OPS.awaitRow(child, "FAILED 0");
        }
    }

    /** How many jobs a retry retried: "count" by ids and by filter, "retried" by queue. */
    private static int retried(JsonObject answer) {
        return answer.containsKey("count") ? answer.getInt("count") : answer.getInt("retried");
    }
}
