package dev.jobqueue.it.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.it.Deployments;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The admin REST API, used over HTTP as an operator would, with the role checks that guard it. */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class AdminIT {

    private static final String ADMIN = "/ops-admin/jobqueue/admin";

    @Deployment(name = "admin", testable = false)
    static WebArchive app() {
        return Deployments.war("ops-admin", "ops", OpsConsumers.class, OpsConsumers.OkConsumer.class,
                OpsConsumers.FlakyOnceConsumer.class, OpsConsumers.FailingConsumer.class, OpsConsumers.Events.class,
                OpsProbe.class, OpsProbeApplication.class);
    }

    @Deployment(name = "admin-disabled", managed = false, testable = false)
    static WebArchive disabled() {
        return Deployments.war("ops-admin-disabled", "ops-disabled", OpsConsumers.class,
                OpsConsumers.OkConsumer.class);
    }

    @ArquillianResource
    Deployer deployer;

    @Test
    void an_application_that_disables_the_admin_api_answers_404_there() throws Exception {
        deployer.deploy("admin-disabled");
        try {
            HttpResponse<String> response = Http.send("GET", "/ops-admin-disabled/jobqueue/admin/queues", "admin",
                    "admin-secret");
            assertEquals(404, response.statusCode(), response.body());
            assertTrue(response.body().contains("jobqueue.admin.enabled=false"), response.body());
        } finally {
            deployer.undeploy("admin-disabled");
        }
    }

    @Test
    void an_unauthenticated_or_wrong_role_request_is_refused_and_changes_nothing() throws Exception {
        String id = failedJob();

        assertEquals(401, Http.send("GET", ADMIN + "/queues", null, null).statusCode());
        assertEquals(401, Http.send("POST", ADMIN + "/jobs/" + id + "/retry", null, null).statusCode());
        assertEquals(403, Http.send("GET", ADMIN + "/queues", "viewer", "viewer-secret").statusCode());
        assertEquals(403, Http.send("POST", ADMIN + "/jobs/" + id + "/retry", "viewer", "viewer-secret").statusCode());
        assertEquals(403, Http.send("DELETE", ADMIN + "/jobs/" + id, "viewer", "viewer-secret").statusCode());

        Thread.sleep(1_000);
        assertEquals("FAILED 1", row(id), "the job was neither retried nor deleted");
    }

    @Test
    void an_admin_sees_queues_dead_letters_and_one_job_with_its_error_history() throws Exception {
        String id = failedJob();

        HttpResponse<String> queues = admin("GET", "/queues");
        assertEquals(200, queues.statusCode(), queues.body());
        assertTrue(queues.body().matches("(?s).*\"queue\":\"ops-failing\".*"), queues.body());

        HttpResponse<String> failed = admin("GET", "/failed?queue=ops-failing&page=0&size=500");
        assertEquals(200, failed.statusCode(), failed.body());
        assertTrue(failed.body().contains(id), failed.body());

        HttpResponse<String> job = admin("GET", "/jobs/" + id);
        assertEquals(200, job.statusCode(), job.body());
        assertTrue(job.body().contains("\"payload\":\"\\\"work for ops-failing\\\"\""), job.body());
        assertTrue(job.body().contains("cannot do work for ops-failing"), job.body());
        assertTrue(job.body().contains("\"attempt\":1"), job.body());
    }

    @Test
    void retrying_a_dead_letter_runs_it_again_and_keeps_both_errors() throws Exception {
        String id = failedJob();

        assertEquals(204, admin("POST", "/jobs/" + id + "/retry").statusCode());

        awaitErrors(id, 2);
        assertEquals("FAILED 1", row(id), "it ran once more and failed again");
        assertEquals(404, admin("POST", "/jobs/" + java.util.UUID.randomUUID() + "/retry").statusCode(),
                "only a FAILED job that exists can be retried");
    }

    @Test
    void retry_all_delete_and_purge_act_on_dead_letters() throws Exception {
        String first = failedJob();
        String second = failedJob();

        HttpResponse<String> retried = admin("POST", "/queues/ops-failing/retry-failed");
        assertEquals(200, retried.statusCode(), retried.body());
        assertTrue(retried.body().matches("\\{\"retried\":[1-9][0-9]*\\}"), retried.body());
        awaitErrors(first, 2);
        awaitErrors(second, 2);

        assertEquals(204, admin("DELETE", "/jobs/" + first).statusCode());
        assertEquals("missing", row(first));
        assertEquals(404, admin("GET", "/jobs/" + first).statusCode());

        HttpResponse<String> purged = admin("DELETE", "/queues/ops-failing/failed?olderThan=0s");
        assertEquals(200, purged.statusCode(), purged.body());
        assertEquals("missing", row(second));
    }

    @Test
    void a_paused_queue_is_not_claimed_until_it_is_resumed() throws Exception {
        assertEquals(204, admin("POST", "/queues/ops-ok/pause").statusCode());
        try {
            String id = put("ops-ok");
            Thread.sleep(1_500); // seven poll intervals
            assertEquals("PENDING 0", row(id));
            assertTrue(admin("GET", "/queues").body().matches("(?s).*\"paused\":true.*\"queue\":\"ops-ok\".*|"
                    + "(?s).*\"queue\":\"ops-ok\".*\"paused\":true.*"));
        } finally {
            assertEquals(204, admin("POST", "/queues/ops-ok/resume").statusCode());
        }
        String after = put("ops-ok");
        awaitRow(after, "DONE 1");
    }

    @Test
    void bad_queue_names_ids_and_parameters_get_a_400_that_names_the_problem() throws Exception {
        HttpResponse<String> badQueue = admin("POST", "/queues/NOT%20A%20QUEUE/pause");
        assertEquals(400, badQueue.statusCode());
        assertTrue(badQueue.body().contains("invalid queue name 'NOT A QUEUE'"), badQueue.body());

        HttpResponse<String> badId = admin("GET", "/jobs/42");
        assertEquals(400, badId.statusCode());
        assertTrue(badId.body().contains("'42' is not a job id"), badId.body());

        HttpResponse<String> badSize = admin("GET", "/failed?size=100000");
        assertEquals(400, badSize.statusCode());
        assertTrue(badSize.body().contains("size must be between 1 and 500, was 100000"), badSize.body());

        HttpResponse<String> badDuration = admin("DELETE", "/queues/ops-failing/failed?olderThan=yesterday");
        assertEquals(400, badDuration.statusCode());
        assertTrue(badDuration.body().contains("expected a duration"), badDuration.body());
    }

    private static HttpResponse<String> admin(String method, String path) throws Exception {
        return Http.send(method, ADMIN + path, "admin", "admin-secret");
    }

    private static String put(String queue) throws Exception {
        HttpResponse<String> response = Http.send("POST", "/ops-admin/test/ops-probe/" + queue, null, null);
        assertEquals(200, response.statusCode(), response.body());
        return response.body().trim();
    }

    private static String row(String id) throws Exception {
        return Http.send("GET", "/ops-admin/test/ops-probe/jobs/" + id, null, null).body().trim();
    }

    private static String failedJob() throws Exception {
        String id = put("ops-failing");
        awaitRow(id, "FAILED 1");
        return id;
    }

    private static void awaitRow(String id, String expected) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        String row = row(id);
        while (!row.equals(expected) && System.nanoTime() < deadline) {
            Thread.sleep(100);
            row = row(id);
        }
        assertEquals(expected, row);
    }

    private static void awaitErrors(String id, int count) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        String body = admin("GET", "/jobs/" + id).body();
        while (occurrences(body, "\"failedAt\"") < count && System.nanoTime() < deadline) {
            Thread.sleep(100);
            body = admin("GET", "/jobs/" + id).body();
        }
        assertEquals(count, occurrences(body, "\"failedAt\""), body);
    }

    private static int occurrences(String text, String part) {
        return text.split(java.util.regex.Pattern.quote(part), -1).length - 1;
    }
}
