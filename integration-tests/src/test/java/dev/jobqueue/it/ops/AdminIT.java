package dev.jobqueue.it.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.jobqueue.it.Deployments;
import dev.jobqueue.it.ServerLog;
import dev.jobqueue.it.TestServer;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
                OpsConsumers.AlreadyDoneConsumer.class, OpsProbe.class, OpsProbe.Unwritable.class,
                OpsProbeApplication.class);
    }

    @Deployment(name = "admin-disabled", managed = false, testable = false)
    static WebArchive disabled() {
        return Deployments.war("ops-admin-disabled", "ops-disabled", OpsConsumers.class,
                OpsConsumers.OkConsumer.class);
    }

    @ArquillianResource
    Deployer deployer;

    @Test
    void an_application_that_disables_the_admin_api_and_the_dashboard_answers_404_there() throws Exception {
        deployer.deploy("admin-disabled");
        try {
            HttpResponse<String> response = Http.send("GET", "/ops-admin-disabled/jobqueue/admin/queues", "admin",
                    "admin-secret");
            assertEquals(404, response.statusCode(), response.body());
            assertTrue(response.body().contains("jobqueue.admin.enabled=false"), response.body());
            for (String page : List.of("/ops-admin-disabled/jobqueue/", "/ops-admin-disabled/jobqueue/ui/app.js")) {
                HttpResponse<String> dashboard = Http.send("GET", page, "admin", "admin-secret");
                assertEquals(404, dashboard.statusCode(), page + ": " + dashboard.body());
                assertFalse(dashboard.body().contains("import "), page + ": " + dashboard.body());
            }
        } finally {
            deployer.undeploy("admin-disabled");
        }
    }

    /**
     * What an operator sees in the server's log after everyday trouble: a failed attempt, a give-up, an exception
     * counted as success, a payload that cannot be written, refused and unknown admin requests. Each failed or
     * given-up attempt is one line, and nothing writes a stack trace, a warning from the server, or an incident
     * (FFDC) file.
     */
    @Test
    void everyday_failures_and_refused_requests_log_one_line_each_and_no_incident() throws Exception {
        Set<String> incidentsBefore = ServerLog.incidents();
        ServerLog.Mark logMark = ServerLog.mark();

        String flaky = put("ops-flaky");
        String failing = put("ops-failing");
        String alreadyDone = put("ops-already-done");
        HttpResponse<String> unwritable = Http.send("POST", "/ops-admin/test/ops-probe/ops-ok/unwritable", null, null);
        assertTrue(unwritable.body().contains("JQ"), unwritable.body());
        assertEquals(403, Http.send("GET", ADMIN + "/queues", "outsider", "outsider-secret").statusCode());
        assertEquals(403, Http.send("POST", ADMIN + "/jobs/" + failing + "/retry", "outsider", "outsider-secret")
                .statusCode());
        assertEquals(401, Http.send("GET", ADMIN + "/queues", null, null).statusCode());
        assertEquals(404, admin("GET", "/no-such-path").statusCode());
        assertEquals(405, admin("PUT", "/queues").statusCode());
        awaitRow(flaky, "DONE 2");
        awaitRow(failing, "FAILED 1");
        awaitRow(alreadyDone, "DONE 1");
        Thread.sleep(1_000);

        String log = ServerLog.since(logMark);
        List<String> lines = log.lines().toList();
        assertEquals(1, lines.stream().filter(line -> line.contains("job " + flaky) && line.contains("failed attempt 1"))
                .count(), log);
        assertEquals(1, lines.stream().filter(line -> line.contains("job " + failing) && line.contains("is FAILED"))
                .count(), log);
        List<String> unexpected = new ArrayList<>(lines.stream().filter(line -> line.startsWith("\tat ")
                || line.contains("FFDC") || line.contains("Generating incomplete JSON")).toList());
        ServerLog.records(log).stream().filter(record -> (ServerLog.isWarning(record) || ServerLog.isError(record))
                && !record.contains(" jobqueue: ")).forEach(unexpected::add);
        assertEquals(List.of(), unexpected, log);
        Set<String> incidents = new TreeSet<>(ServerLog.incidents());
        incidents.removeAll(incidentsBefore);
        assertEquals(Set.of(), incidents, "no incident files");
    }

    @Test
    void a_server_with_mp_openapi_describes_the_admin_api_with_its_schemas() throws Exception {
        HttpResponse<String> document = Http.send("GET", "/openapi?format=JSON", null, null);

        assertEquals(200, document.statusCode(), document.body());
        String body = document.body();
        // This application has a REST application of its own besides jobqueue's, and the server may list the admin
        // resource under either one's path: only the part below it is certain.
        // Liberty names the context root as the server's URL, WildFly at the start of each path.
        assertTrue(body.contains("/ops-admin\"") || body.contains("\"/ops-admin/"), "/ops-admin in " + body);
        for (String expected : List.of("/admin/queues\"", "/admin/jobs/{id}/retry\"", "jobqueue admin")) {
            assertTrue(body.contains(expected), expected + " in " + body);
        }
        assumeFalse(TestServer.isPayara(), "Payara's MicroProfile OpenAPI (6.2025.10) makes no component schema of"
                + " an @APIResponse's @Schema(implementation = ...): the document lists the admin API's paths and tags,"
                + " but its answers as plain objects, without QueueStats, JobDetails or ErrorBody");
        for (String expected : List.of("\"QueueStats\"", "\"JobDetails\"", "\"ErrorBody\"")) {
            assertTrue(body.contains(expected), expected + " in " + body);
        }
    }

    @Test
    void an_unauthenticated_or_wrong_role_request_is_refused_and_changes_nothing() throws Exception {
        String id = failedJob();

        assertEquals(401, Http.send("GET", ADMIN + "/queues", null, null).statusCode());
        assertEquals(401, Http.send("POST", ADMIN + "/jobs/" + id + "/retry", null, null).statusCode());
        assertEquals(403, Http.send("GET", ADMIN + "/queues", "outsider", "outsider-secret").statusCode());
        assertEquals(403, Http.send("POST", ADMIN + "/jobs/" + id + "/retry", "outsider", "outsider-secret").statusCode());
        assertEquals(403, Http.send("DELETE", ADMIN + "/jobs/" + id, "outsider", "outsider-secret").statusCode());

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
        assertTrue(failed.body().contains("\"id\":\"" + id + "\""), "a job id is its UUID text: " + failed.body());

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
        assertTrue(retried.body().matches("\\{\"retried\":[1-9][0-9]*,\"skipped\":0,.*\\}"), retried.body());
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

    @Test
    void a_change_without_the_requested_by_header_is_refused_with_403_and_changes_nothing() throws Exception {
        String id = failedJob();

        for (String[] request : List.of(new String[] {"POST", "/jobs/" + id + "/retry"},
                new String[] {"DELETE", "/jobs/" + id}, new String[] {"POST", "/queues/ops-failing/retry-failed"},
                new String[] {"DELETE", "/queues/ops-failing/failed?olderThan=0s"},
                new String[] {"POST", "/queues/ops-ok/pause"})) {
            HttpResponse<String> refused = adminWithoutHeader(request[0], request[1]);
            assertEquals(403, refused.statusCode(), request[0] + " " + request[1] + ": " + refused.body());
            assertTrue(refused.body().contains("JQ080") && refused.body().contains("X-Requested-By"),
                    refused.body());
        }

        Thread.sleep(1_000); // seven poll intervals: a retried job would have run and failed again
        assertEquals("FAILED 1", row(id), "the job was neither retried, deleted nor purged");
        awaitErrors(id, 1);
        assertFalse(listed("ops-ok") != null && listed("ops-ok").contains("\"paused\":true"), listed("ops-ok"));
        awaitRow(put("ops-ok"), "DONE 1");
    }

    @Test
    void a_resume_without_the_requested_by_header_leaves_the_queue_paused() throws Exception {
        assertEquals(204, admin("POST", "/queues/ops-ok/pause").statusCode());
        try {
            assertEquals(403, adminWithoutHeader("POST", "/queues/ops-ok/resume").statusCode());
            String id = put("ops-ok");
            Thread.sleep(1_500);
            assertEquals("PENDING 0", row(id), "the queue is still paused");
        } finally {
            assertEquals(204, admin("POST", "/queues/ops-ok/resume").statusCode());
        }
    }

    @Test
    void purging_without_older_than_is_refused_and_purges_nothing() throws Exception {
        String id = failedJob();

        for (String path : List.of("/queues/ops-failing/failed", "/queues/ops-failing/failed?olderThan=")) {
            HttpResponse<String> refused = admin("DELETE", path);
            assertEquals(400, refused.statusCode(), path + ": " + refused.body());
            assertTrue(refused.body().contains("JQ083: olderThan is required"), refused.body());
        }
        assertEquals("FAILED 1", row(id));
    }

    @Test
    void a_duration_too_long_to_compute_with_gets_400_not_500() throws Exception {
        String id = failedJob();

        for (String olderThan : List.of("PT9999999999999H", "10000000000000d", "99999999999999999999s", "36501d")) {
            HttpResponse<String> refused = admin("DELETE", "/queues/ops-failing/failed?olderThan=" + olderThan);
            assertEquals(400, refused.statusCode(), olderThan + ": " + refused.body());
            assertTrue(refused.body().contains("at most 36500d"), refused.body());
        }
        assertEquals("FAILED 1", row(id));
    }

    @Test
    void a_group_name_that_no_job_can_carry_gets_400_naming_the_rule() throws Exception {
        for (String group : List.of("g".repeat(201), "%20%20")) {
            HttpResponse<String> refused = admin("GET", "/groups/" + group);
            assertEquals(400, refused.statusCode(), group + ": " + refused.body());
            assertTrue(refused.body().contains("JQ084: invalid group name"), refused.body());
        }
        assertEquals(400, admin("GET", "/groups/a%00b").statusCode(), "Liberty refuses a NUL in a path itself");
        HttpResponse<String> longest = admin("GET", "/groups/" + "g".repeat(200));
        assertEquals(200, longest.statusCode(), longest.body());
        assertTrue(longest.body().contains("\"failed\":0"), longest.body());
    }

    @Test
    void retrying_a_job_whose_dependency_is_failed_is_refused_with_409_naming_the_dependency() throws Exception {
        String dependency = failedJob();
        String dependent = putAfter("ops-ok", dependency);
        awaitRow(dependent, "FAILED 0");

        HttpResponse<String> refused = admin("POST", "/jobs/" + dependent + "/retry");
        assertEquals(409, refused.statusCode(), refused.body());
        assertTrue(refused.body().contains("JQ081") && refused.body().contains(dependency), refused.body());
        Thread.sleep(500);
        assertEquals("FAILED 0", row(dependent), "the dependent was not made WAITING");

        assertEquals(204, admin("DELETE", "/jobs/" + dependency).statusCode());
        assertEquals(204, admin("POST", "/jobs/" + dependent + "/retry").statusCode(),
                "a dependency that no longer exists counts as DONE");
        awaitRow(dependent, "DONE 1");
    }

    @Test
    void pausing_or_resuming_a_queue_that_does_not_exist_is_refused_with_404_and_writes_nothing() throws Exception {
        for (String action : List.of("pause", "resume")) {
            HttpResponse<String> refused = admin("POST", "/queues/ops-nobody/" + action);
            assertEquals(404, refused.statusCode(), action + ": " + refused.body());
            assertTrue(refused.body().contains("JQ082: no queue 'ops-nobody'"), refused.body());
        }
        assertNull(listed("ops-nobody"), "no pause switch was left for the queue");
    }

    @Test
    void a_queue_with_jobs_but_no_consumer_here_can_be_paused_and_resume_removes_its_switch() throws Exception {
        String id = put("ops-unconsumed");
        try {
            assertEquals(204, admin("POST", "/queues/ops-unconsumed/pause").statusCode());
            assertTrue(listed("ops-unconsumed").contains("\"paused\":true"), listed("ops-unconsumed"));
            assertEquals(204, admin("POST", "/queues/ops-unconsumed/resume").statusCode());
            assertTrue(listed("ops-unconsumed").contains("\"paused\":false"), listed("ops-unconsumed"));
        } finally {
            assertEquals(204, admin("DELETE", "/jobs/" + id).statusCode());
        }
        assertNull(listed("ops-unconsumed"), "with its job gone and its switch removed, the queue is not listed");
    }

    @Test
    void head_and_options_on_every_admin_path_need_the_role_leak_nothing_and_change_nothing() throws Exception {
        String id = failedJob();
        List<String> paths = List.of("/queues", "/failed?queue=ops-failing", "/groups/some-group", "/jobs/" + id,
                "/jobs/" + id + "/retry", "/queues/ops-failing/retry-failed", "/queues/ops-failing/failed?olderThan=0s",
                "/queues/ops-ok/pause", "/queues/ops-ok/resume", "/no-such-path");

        for (String path : paths) {
            for (String method : List.of("HEAD", "OPTIONS")) {
                String request = method + " " + path;
                HttpResponse<String> anonymous = Http.send(method, ADMIN + path, null, null);
                assertEquals(401, anonymous.statusCode(), request + ": " + anonymous.body());
                assertFalse(anonymous.body().contains(id) || anonymous.body().contains("ops-"), anonymous.body());
                assertTrue(anonymous.headers().firstValue("Allow").isEmpty(), request + " tells no methods");

                HttpResponse<String> outsider = Http.send(method, ADMIN + path, "outsider", "outsider-secret");
                assertEquals(403, outsider.statusCode(), request + ": " + outsider.body());
                assertFalse(outsider.body().contains(id) || outsider.body().contains("ops-"), outsider.body());

                HttpResponse<String> admin = Http.send(method, ADMIN + path, "admin", "admin-secret",
                        Map.of("X-Requested-By", "AdminIT"));
                assertTrue(admin.statusCode() < 500, request + ": " + admin.statusCode());
                if (method.equals("HEAD")) {
                    assertEquals("", admin.body(), request);
                } else {
                    assertFalse(admin.body().contains(id), request + ": " + admin.body());
                }
            }
        }

        Thread.sleep(1_000);
        assertEquals("FAILED 1", row(id), "the job was neither retried, deleted nor purged");
        awaitErrors(id, 1);
        assertFalse(listed("ops-ok") != null && listed("ops-ok").contains("\"paused\":true"), listed("ops-ok"));
    }

    /** A request as an admin tool sends it: with the X-Requested-By header when it changes something. */
    private static HttpResponse<String> admin(String method, String path) throws Exception {
        return Http.send(method, ADMIN + path, "admin", "admin-secret",
                method.equals("GET") ? Map.of() : Map.of("X-Requested-By", "AdminIT"));
    }

    /** A request as a form or link on another site makes the operator's browser send it: no custom header. */
    private static HttpResponse<String> adminWithoutHeader(String method, String path) throws Exception {
        return Http.send(method, ADMIN + path, "admin", "admin-secret");
    }

    private static String putAfter(String queue, String dependency) throws Exception {
        HttpResponse<String> response = Http.send("POST", "/ops-admin/test/ops-probe/" + queue + "/after/" + dependency,
                null, null);
        assertEquals(200, response.statusCode(), response.body());
        return response.body().trim();
    }

    /** The queue's entry in GET /queues, or null if it is not listed. */
    private static String listed(String queue) throws Exception {
        HttpResponse<String> queues = admin("GET", "/queues");
        assertEquals(200, queues.statusCode(), queues.body());
        // A queue's entry holds one nested object, its flow control, before or after its name.
        String nested = "[^{}]*(\\{[^{}]*\\}[^{}]*)*";
        Matcher entry = Pattern.compile("\\{" + nested + "\"queue\":\"" + Pattern.quote(queue) + "\"" + nested
                + "\\}").matcher(queues.body());
        return entry.find() ? entry.group() : null;
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
