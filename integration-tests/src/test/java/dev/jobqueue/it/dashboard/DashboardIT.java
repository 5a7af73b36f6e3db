package dev.jobqueue.it.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.it.AdminHttp;
import dev.jobqueue.it.Await;
import dev.jobqueue.it.Deployments;
import dev.jobqueue.it.ops.Http;
import jakarta.json.JsonObject;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.logging.Level;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.logging.LogEntry;

/**
 * The dashboard in a real browser, headless Chromium, against Liberty with real jobs: what a viewer sees and may
 * not do, an admin's retry, pause and resume, the filters, the job page, and the page's security headers. The
 * application has its own Jakarta REST application at {@code /}, which the dashboard must not disturb.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@Tag("any-database")
class DashboardIT {

    static final String APP = "dashboard";
    private static final String ADMIN_API = "/" + APP + "/jobqueue/admin";

    private static Browser browser;

    @Deployment(testable = false)
    static WebArchive app() {
        return Deployments.war(APP, "dashboard", DashboardApp.class, DashboardApp.RootApplication.class,
                DashboardApp.FailsOnceConsumer.class, DashboardApp.AlwaysFailsConsumer.class,
                DashboardApp.OkConsumer.class, DashboardApp.ProgressConsumer.class, DashboardApp.Actions.class,
                DashboardApp.Probe.class);
    }

    @AfterAll
    static void closeBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    private static Browser browser() {
        if (browser == null) {
            browser = new Browser();
        }
        return browser;
    }

    @Test
    void a_viewer_sees_counts_that_match_the_table_and_has_no_action_and_a_forged_post_is_refused() throws Exception {
        List<String> failed = put("dash-always-fails", 3, "viewer-check", null);
        for (String id : failed) {
            awaitState(id, "FAILED");
        }
        Browser viewer = browser().as("viewer", "viewer-secret");

        viewer.open(APP, "#/");
        Await.until(() -> shown(viewer, "dash-always-fails", "failed") == count("dash-always-fails", "FAILED"),
                Duration.ofSeconds(10));
        for (String state : List.of("waiting", "pending", "running", "done", "failed")) {
            assertEquals(count("dash-always-fails", state.toUpperCase()), shown(viewer, "dash-always-fails", state),
                    state);
        }
        assertTrue(viewer.text("#user").contains("viewer"), viewer.text("#user"));

        viewer.open(APP, "#/failed?queue=dash-always-fails");
        viewer.await("#failed-table tr[data-job-id='" + failed.get(0) + "']");
        viewer.open(APP, "#/job/" + failed.get(0));
        viewer.await("#job-state");
        viewer.open(APP, "#/queues");
        viewer.await("#queues-table tr[data-queue='dash-always-fails']");
        viewer.open(APP, "#/schedules");
        viewer.await("#schedules-table, #page");
        for (String route : List.of("#/failed?queue=dash-always-fails", "#/job/" + failed.get(0), "#/queues")) {
            viewer.open(APP, route);
            viewer.await("#updated");
            Thread.sleep(500);
            assertEquals(List.of(), viewer.all("button.retry-one, button.delete-one, #retry-selected,"
                    + " #delete-selected, #retry-matching, #delete-matching, input.select-job, #retry-job,"
                    + " #delete-job, #cancel-job, button.pause, button.resume, button.trigger"), route);
        }

        HttpResponse<String> forged = Http.send("POST", ADMIN_API + "/jobs/" + failed.get(0) + "/retry", "viewer",
                "viewer-secret", Map.of("X-Requested-By", "forged"));
        assertEquals(403, forged.statusCode(), forged.body());
        assertTrue(forged.body().contains("JQ088"), forged.body());
        HttpResponse<String> forgedBulk = Http.send("POST", ADMIN_API + "/failed/retry?queue=dash-always-fails",
                "viewer", "viewer-secret", Map.of("X-Requested-By", "forged"));
        assertEquals(403, forgedBulk.statusCode(), forgedBulk.body());
        Thread.sleep(500);
        assertEquals("FAILED", state(failed.get(0)), "the forged retry changed nothing");
        assertEquals(200, Http.send("GET", ADMIN_API + "/queues", "viewer", "viewer-secret").statusCode());
    }

    @Test
    void an_admin_retries_a_failed_job_from_the_browser_and_it_runs() throws Exception {
        String id = put("dash-fails-once", 1, "retry-me", null).get(0);
        awaitState(id, "FAILED");
        Browser admin = browser().as("admin", "admin-secret");

        admin.open(APP, "#/failed?queue=dash-fails-once");
        admin.await("#failed-table tr[data-job-id='" + id + "'] button.retry-one").click();
        assertTrue(admin.text("#confirm-message").contains("1"), admin.text("#confirm-message"));
        admin.await("#confirm-ok").click();

        awaitState(id, "DONE");
        assertTrue(admin.text("#status").contains("1"), admin.text("#status"));
        String actions = Http.send("GET", "/" + APP + "/probe/actions", null, null).body();
        assertTrue(actions.contains("admin retry job " + id + " 1"), actions);
    }

    @Test
    void an_admin_cancels_a_pending_job_from_its_page_and_it_stays_cancelled() throws Exception {
        // No consumer takes this queue: the job stays PENDING until the cancel.
        String id = put("dash-held-" + UUID.randomUUID().toString().substring(0, 8), 1, "cancel-me", null).get(0);
        Browser admin = browser().as("admin", "admin-secret");

        admin.open(APP, "#/job/" + id);
        admin.await("#cancel-job").click();
        assertTrue(admin.text("#confirm-message").contains(id), admin.text("#confirm-message"));
        admin.await("#confirm-ok").click();

        awaitState(id, "CANCELLED");
        assertTrue(Await.until(() -> admin.text("#job-state").equals("CANCELLED"), Duration.ofSeconds(10)),
                admin.text("#job-state"));
        assertTrue(admin.text("#status").contains("Cancelled job " + id), admin.text("#status"));
        assertEquals(List.of(), admin.all("#cancel-job"), "no Cancel on a CANCELLED job");
        admin.await("#retry-job");
        String actions = Http.send("GET", "/" + APP + "/probe/actions", null, null).body();
        assertTrue(actions.contains("admin cancel job " + id + " 1"), actions);
    }

    @Test
    void a_running_jobs_progress_shows_as_a_bar_with_its_note_as_text_on_its_page_and_in_the_list()
            throws Exception {
        String id = put("dash-progress", 1, "progress", null).get(0);
        Browser viewer = browser().as("viewer", "viewer-secret");
        try {
            viewer.open(APP, "#/job/" + id);
            // The page refreshes on its timer; the report is written within about a second.
            assertTrue(Await.until(() -> !viewer.all("#job-progress-percent").isEmpty(), Duration.ofSeconds(15)),
                    "no progress shown");
            assertEquals("40%", viewer.text("#job-progress-percent"));
            assertEquals("<b>row</b> 4 of 10", viewer.text("#job-progress-note"), "the note as text, not markup");
            assertEquals(List.of(), viewer.all("#job-progress b"));

            viewer.open(APP, "#/jobs?queue=dash-progress");
            viewer.await("#jobs-table tr[data-job-id='" + id + "'] progress.row-progress");
        } finally {
            Http.send("POST", "/" + APP + "/probe/progress/end", null, null);
        }
        awaitState(id, "DONE");
    }

    @Test
    void retry_all_matching_says_how_many_jobs_it_will_touch_and_retries_them() throws Exception {
        List<String> ids = put("dash-fails-once", 4, "bulk-retry", null);
        for (String id : ids) {
            awaitState(id, "FAILED");
        }
        Browser admin = browser().as("admin", "admin-secret");

        admin.open(APP, "#/failed?queue=dash-fails-once");
        admin.await("#failed-table tr[data-job-id='" + ids.get(0) + "']");
        admin.await("#retry-matching").click();
        String message = admin.text("#confirm-message");
        assertTrue(message.contains(String.valueOf(count("dash-fails-once", "FAILED"))), message);
        admin.await("#confirm-ok").click();

        for (String id : ids) {
            awaitState(id, "DONE");
        }
    }

    @Test
    void a_filter_finds_one_job_among_ten_thousand_by_its_dedupe_key() throws Exception {
        List<String> ids = put("dash-bulk", 10_000, null, "bulk");
        assertEquals(10_000, ids.size());
        Browser admin = browser().as("admin", "admin-secret");

        admin.open(APP, "#/jobs");
        WebElement key = admin.await("#jobs-filter [name='dedupeKey']");
        key.clear();
        key.sendKeys("bulk-7777");
        admin.await("#jobs-filter button[type='submit']").click();

        admin.awaitCount("#jobs-table tbody tr[data-job-id]", 1);
        admin.awaitFirst("#jobs-table tbody tr[data-job-id]", "data-job-id", ids.get(7777));
        assertTrue(admin.currentUrl().contains("dedupeKey=bulk-7777"), admin.currentUrl());
        admin.screenshot("jobs-filtered");

        admin.open(APP, "#/jobs?queue=dash-bulk");
        admin.awaitCount("#jobs-table tbody tr[data-job-id]", 50);
        admin.awaitFirst("#jobs-table tbody tr[data-job-id]", "data-job-id", ids.get(9_999));
        admin.await("#next-page").click();
        admin.awaitFirst("#jobs-table tbody tr[data-job-id]", "data-job-id", ids.get(9_949));

        List<String> dueOrder = new java.util.ArrayList<>();
        String after = null;
        for (int page = 0; page < 3; page++) {
            JsonObject listing = (JsonObject) AdminHttp.json(AdminHttp.get(APP, "/jobs?queue=dash-bulk&state=PENDING"
                    + "&sort=due&size=40" + (after == null ? "" : "&after=" + after)));
            listing.getJsonArray("jobs").forEach(job -> dueOrder.add(((JsonObject) job).getString("id")));
            after = listing.getString("next");
        }
        assertEquals(ids.subList(0, 120), dueOrder, "due soonest first, page after page, none lost or repeated");
    }

    @Test
    void a_jobs_page_shows_each_attempts_error() throws Exception {
        String id = put("dash-always-fails", 1, "report-42", null).get(0);
        awaitState(id, "FAILED");
        Browser viewer = browser().as("viewer", "viewer-secret");

        viewer.open(APP, "#/job/" + id);
        viewer.awaitCount("#job-errors li.attempt", 3);
        for (int attempt = 1; attempt <= 3; attempt++) {
            String text = viewer.text("#job-errors li.attempt[data-attempt='" + attempt + "']");
            assertTrue(text.contains("attempt " + attempt + " of report-42 failed"), text);
        }
        assertEquals("FAILED", viewer.text("#job-state"));
        viewer.screenshot("job-failed");
    }

    @Test
    void pause_and_resume_from_the_page_stop_and_restart_claiming() throws Exception {
        put("dash-ok", 1, "warm-up", null);
        Browser admin = browser().as("admin", "admin-secret");

        admin.open(APP, "#/queues");
        admin.await("#queues-table tr[data-queue='dash-ok'] button.pause").click();
        Await.until(() -> queue("dash-ok").getBoolean("paused"), Duration.ofSeconds(10));
        String id = put("dash-ok", 1, "while-paused", null).get(0);
        Thread.sleep(2_000);
        assertEquals("PENDING", state(id), "a paused queue's job is not claimed");
        admin.screenshot("queues-paused");

        admin.await("#queues-table tr[data-queue='dash-ok'] button.resume").click();
        awaitState(id, "DONE");
        assertTrue(!queue("dash-ok").getBoolean("paused"));
    }

    @Test
    void an_admin_sets_a_queues_limits_on_the_page_and_sees_them_in_force() throws Exception {
        put("dash-ok", 1, "warm-up-limits", null);
        Browser admin = browser().as("admin", "admin-secret");
        admin.open(APP, "#/queues");
        String row = "#queues-table tr[data-queue='dash-ok']";
        assertEquals("none", admin.text(row + " td[data-limits]"));
        try {
            admin.await(row + " .limits-form summary").click();
            admin.await(row + " input[name='rateLimit']").sendKeys("30/1m");
            admin.await(row + " input[name='maxRunning']").sendKeys("2");
            admin.await(row + " button.set-limits").click();
            assertTrue(Await.until(() -> queue("dash-ok").getJsonObject("flow").getInt("maxRunning") == 2,
                    Duration.ofSeconds(10)), "the limits are set for every node");
            JsonObject flow = queue("dash-ok").getJsonObject("flow");
            assertEquals("30/1m", flow.getString("rateLimit"));
            assertTrue(flow.getBoolean("overridden"));
            String shown = "\\d+/30 started per 1m; \\d+/2 running \\(set by an admin\\)";
            assertTrue(Await.until(() -> admin.text(row + " td[data-limits]").matches(shown), Duration.ofSeconds(10)),
                    () -> admin.text(row + " td[data-limits]"));
            admin.screenshot("queues-limits");
        } finally {
            AdminHttp.put(APP, "/queues/dash-ok/limits", "{}");
        }
    }

    @Test
    void every_page_has_a_strict_content_security_policy_and_logs_no_console_error() throws Exception {
        HttpResponse<String> page = Http.send("GET", "/" + APP + "/jobqueue/", "admin", "admin-secret");
        assertEquals(200, page.statusCode());
        String policy = page.headers().firstValue("Content-Security-Policy").orElse("");
        assertTrue(policy.contains("script-src 'self'") && policy.contains("default-src 'none'")
                && !policy.contains("unsafe-inline"), policy);
        assertTrue(!page.body().contains("<script>") && page.body().contains("type=\"module\""), page.body());
        assertEquals(401, Http.send("GET", "/" + APP + "/jobqueue/", null, null).statusCode());
        assertEquals(403, Http.send("GET", "/" + APP + "/jobqueue/", "outsider", "outsider-secret").statusCode());
        HttpResponse<String> escape = Http.send("GET", "/" + APP + "/jobqueue/ui/..%2F..%2FMETA-INF%2Fbeans.xml",
                "admin", "admin-secret");
        assertTrue(escape.statusCode() == 400 || escape.statusCode() == 404, escape.statusCode() + escape.body());
        assertEquals(404, Http.send("GET", "/" + APP + "/jobqueue/ui/persistence.xml", "admin", "admin-secret")
                .statusCode());
        assertEquals("probe", Http.send("GET", "/" + APP + "/probe/actions", null, null).statusCode() == 200
                ? "probe" : "the application's own REST application at / stopped answering");

        String failed = put("dash-always-fails", 1, "screenshot", null).get(0);
        awaitState(failed, "FAILED");
        Browser admin = browser().as("admin", "admin-secret");
        admin.console();
        Map<String, String> pages = Map.of("overview", "#/", "jobs", "#/jobs", "job", "#/job/" + failed,
                "failed", "#/failed", "queues", "#/queues", "nodes", "#/nodes", "schedules", "#/schedules");
        for (Map.Entry<String, String> route : pages.entrySet()) {
            admin.open(APP, route.getValue());
            admin.await("#updated");
            Thread.sleep(700);
            admin.screenshot(route.getKey());
        }
        List<LogEntry> problems = admin.console().stream()
                .filter(entry -> entry.getLevel().intValue() >= Level.WARNING.intValue()).toList();
        assertEquals(List.of(), problems.stream().map(LogEntry::getMessage).toList());
    }

    /** The count the overview shows for a queue and state. */
    private static long shown(Browser browser, String queue, String state) {
        return Long.parseLong(browser.text("#overview-table tr[data-queue='" + queue + "'] [data-count='" + state
                + "']").strip());
    }

    /** Puts jobs through the application's probe; returns their ids in put order. */
    static List<String> put(String queue, int count, String payload, String dedupePrefix) throws Exception {
        String query = "queue=" + queue + "&count=" + count
                + (payload == null ? "" : "&payload=" + URLEncoder.encode(payload, StandardCharsets.UTF_8))
                + (dedupePrefix == null ? "" : "&dedupePrefix=" + dedupePrefix);
        HttpResponse<String> response = Http.send("POST", "/" + APP + "/probe/put?" + query, null, null);
        assertEquals(200, response.statusCode(), response.body());
        return response.body().lines().toList();
    }

    private static long count(String queue, String state) throws Exception {
        return ((JsonObject) AdminHttp.json(AdminHttp.get(APP, "/jobs/count?queue=" + queue + "&state=" + state)))
                .getJsonNumber("count").longValue();
    }

    private static JsonObject queue(String name) throws Exception {
        return AdminHttp.json(AdminHttp.get(APP, "/queues")).asJsonArray().stream().map(JsonObject.class::cast)
                .filter(queue -> queue.getString("queue").equals(name)).findFirst().orElseThrow();
    }

    private static String state(String id) throws Exception {
        return ((JsonObject) AdminHttp.json(AdminHttp.get(APP, "/jobs/" + id + "?payload=none")))
                .getJsonObject("summary").getString("state");
    }

    private static void awaitState(String id, String expected) throws Exception {
        assertTrue(Await.until(() -> expected.equals(state(id)), Duration.ofSeconds(20)),
                "job " + id + " should be " + expected + ", is " + state(id));
    }
}
