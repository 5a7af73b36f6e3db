package dev.jobqueue.it.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.it.Deployments;
import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A child job whose parent failed for good fails too (JQ045). Every operator path that retries or deletes jobs
 * (one job, jobs by id, every match of a filter, a queue's failed jobs, a purge) keeps the rule of the single-job
 * actions: no retry leaves a child WAITING on a FAILED parent, and deleting a parent frees its child, as a job that
 * no longer exists counts as DONE.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class DependentJobsIT {

    private static final String APP = "ops-dependents";
    private static final ProbeClient OPS = new ProbeClient(APP, "DependentJobsIT");

    @Deployment(testable = false)
    static WebArchive app() {
        return Deployments.war(APP, "ops", DependentConsumers.class, DependentConsumers.FailingParent.class,
                DependentConsumers.Child.class, OpsProbe.class, OpsProbeApplication.class);
    }

    @Test
    void a_retry_by_id_by_filter_or_by_queue_passes_over_a_child_of_a_failed_parent_and_says_why() throws Exception {
        Family family = failedFamily();

        JsonObject byId = OPS.json(OPS.admin("POST", "/jobs/retry", "{\"ids\":[\"" + family.child + "\"]}"));
        assertEquals(0, byId.getInt("count"), byId.toString());
        assertEquals(1, byId.getInt("skipped"), byId.toString());
        assertEquals(1, byId.getJsonObject("skippedBecause").getInt("dependencyFailed"), byId.toString());

        JsonObject byFilter = OPS.json(OPS.admin("POST", "/failed/retry?id=" + family.child, null));
        assertEquals(0, byFilter.getInt("count"), byFilter.toString());
        assertEquals(1, byFilter.getJsonObject("skippedBecause").getInt("dependencyFailed"), byFilter.toString());

        JsonObject byQueue = OPS.json(OPS.admin("POST", "/queues/dep-child/retry-failed", null));
        assertTrue(byQueue.getJsonObject("skippedBecause").getInt("dependencyFailed") >= 1, byQueue.toString());

        Thread.sleep(500);
        assertEquals("FAILED 0", OPS.row(family.child), "the child was left FAILED, not WAITING on its FAILED parent");
    }

    @Test
    void retrying_a_parent_and_its_child_together_retries_both_and_the_child_fails_again_with_its_parent()
            throws Exception {
        Family family = failedFamily();

        JsonObject both = OPS.json(OPS.admin("POST", "/jobs/retry", "{\"ids\":[\"" + family.child + "\",\"" + family.parent
                + "\"]}"));

        assertEquals(2, both.getInt("count"), both.toString());
        OPS.awaitRow(family.parent, "FAILED 1");
        OPS.awaitRow(family.child, "FAILED 0");
    }

    @Test
    void deleting_a_failed_parent_by_id_answers_and_frees_its_child_for_a_retry() throws Exception {
        Family family = failedFamily();

        HttpResponse<String> deleted = OPS.admin("POST", "/jobs/delete", "{\"ids\":[\"" + family.parent + "\"]}");

        assertEquals(1, OPS.json(deleted).getInt("count"), deleted.body());
        assertEquals("missing", OPS.row(family.parent));
        assertEquals(1, OPS.json(OPS.admin("POST", "/jobs/retry", "{\"ids\":[\"" + family.child + "\"]}")).getInt("count"));
        OPS.awaitRow(family.child, "DONE 1");
    }

    @Test
    void deleting_failed_parents_by_filter_or_by_purge_frees_their_children() throws Exception {
        Family byFilter = failedFamily();
        assertEquals(1, OPS.json(OPS.admin("POST", "/failed/delete?id=" + byFilter.parent, null)).getInt("count"));
        assertEquals(1, OPS.json(OPS.admin("POST", "/failed/retry?id=" + byFilter.child, null)).getInt("count"));
        OPS.awaitRow(byFilter.child, "DONE 1");

        Family byPurge = failedFamily();
        HttpResponse<String> purged = OPS.admin("DELETE", "/queues/dep-parent/failed?olderThan=0s", null);
        assertTrue(OPS.json(purged).getInt("purged") >= 1, purged.body());
        assertEquals("missing", OPS.row(byPurge.parent));
        assertEquals(1, OPS.json(OPS.admin("POST", "/failed/retry?id=" + byPurge.child, null)).getInt("count"));
        OPS.awaitRow(byPurge.child, "DONE 1");
    }

    /**
     * A parent retried by an operator fails again while the operator retries its child, over and over: whichever
     * commits first, the child ends FAILED with its parent, never WAITING on it.
     */
    @Test
    void a_child_retried_while_its_parent_fails_again_never_waits_on_a_failed_parent() throws Exception {
        for (int round = 0; round < 12; round++) {
            Family family = failedFamily();
            assertEquals(204, OPS.admin("POST", "/jobs/" + family.parent + "/retry", null).statusCode());
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (!OPS.row(family.parent).equals("FAILED 1") && System.nanoTime() < deadline) {
                HttpResponse<String> retried = OPS.admin("POST", "/jobs/retry", "{\"ids\":[\"" + family.child + "\"]}");
                assertEquals(200, retried.statusCode(), retried.body());
            }
            OPS.admin("POST", "/jobs/retry", "{\"ids\":[\"" + family.child + "\"]}");
            OPS.awaitRow(family.child, "FAILED 0");
        }
    }

    @Test
    void a_job_that_many_jobs_wait_for_shows_how_many_and_pages_through_them() throws Exception {
        String parent = OPS.probe("/dep-held");
        Set<String> children = new TreeSet<>();
        for (int i = 0; i < 120; i++) {
            children.add(OPS.probe("/dep-child/after/" + parent));
        }

        JsonObject options = OPS.json(OPS.admin("GET", "/jobs/" + parent + "/options", null));
        JsonObject waitedBy = options.getJsonObject("waitedBy");
        assertEquals(120, waitedBy.getInt("total"), options.toString());
        assertEquals(50, waitedBy.getJsonArray("jobs").size(), options.toString());
        assertEquals(0, options.getJsonObject("waitsFor").getInt("total"), options.toString());

        Set<String> paged = new TreeSet<>();
        String after = "";
        int pages = 0;
        do {
            JsonObject page = OPS.json(OPS.admin("GET", "/jobs/" + parent + "/waited-by?size=50&after=" + after, null));
            page.getJsonArray("jobs").forEach(job -> assertTrue(paged.add(job.asJsonObject().getString("id")),
                    "each job once: " + job));
            after = page.containsKey("next") ? page.getString("next") : null;
            pages++;
        } while (after != null);
        assertEquals(3, pages);
        assertEquals(children, paged);

        JsonObject child = OPS.json(OPS.admin("GET", "/jobs/" + children.iterator().next() + "/waits-for", null));
        assertEquals(1, child.getInt("total"), child.toString());
        assertEquals(parent, child.getJsonArray("jobs").getJsonObject(0).getString("id"));

        assertEquals(204, OPS.admin("DELETE", "/jobs/" + parent, null).statusCode());
        for (String id : children) {
            OPS.awaitRow(id, "DONE 1");
        }
    }

    /** A parent that failed for good and its child, failed with it. */
    private record Family(String parent, String child) {
    }

    private static Family failedFamily() throws Exception {
        String parent = OPS.probe("/dep-parent");
        String child = OPS.probe("/dep-child/after/" + parent);
        OPS.awaitRow(parent, "FAILED 1");
        OPS.awaitRow(child, "FAILED 0");
        return new Family(parent, child);
    }
}
