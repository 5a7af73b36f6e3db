package dev.jobqueue.it.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.JobAdmin;
import dev.jobqueue.JobFailed;
import dev.jobqueue.JobId;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobRetried;
import dev.jobqueue.LeaseRescued;
import dev.jobqueue.internal.dispatch.Dispatcher;
import dev.jobqueue.it.Await;
import dev.jobqueue.it.Deployments;
import dev.jobqueue.it.TestServer;
import dev.jobqueue.it.app.PlacedOrder;
import dev.jobqueue.it.lifecycle.Calls;
import dev.jobqueue.it.lifecycle.JobTable;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.inject.Inject;
import jakarta.transaction.UserTransaction;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Metrics, health checks and lifecycle events, read the way operators read them. */
@ExtendWith(ArquillianExtension.class)
class ObservabilityIT {

    private static final Duration WAIT = Duration.ofSeconds(20);
    @Deployment
    static WebArchive app() {
        return Deployments.war("observability", "ops", OpsConsumers.class, OpsConsumers.OkConsumer.class,
                OpsConsumers.FlakyOnceConsumer.class, OpsConsumers.FailingConsumer.class, OpsConsumers.Events.class,
                Http.class, JobTable.class, Calls.class, PlacedOrder.class, TestServer.class);
    }

    @Inject
    JobQueue jobs;

    @Inject
    OpsConsumers.Events events;

    @Inject
    Dispatcher dispatcher;

    @Inject
    JobAdmin admin;

    @EJB
    JobTable table;

    @Resource(lookup = "java:comp/UserTransaction")
    UserTransaction transaction;

    @Test
    void metrics_count_what_real_jobs_did_and_time_them() throws Exception {
        String before = scrape();

        JobId ok1 = jobs.put("ops-ok", "a");
        JobId ok2 = jobs.put("ops-ok", "b");
        JobId flaky = jobs.put("ops-flaky", "c");
        JobId failing = jobs.put("ops-failing", "d");
        awaitState(ok1, "DONE");
        awaitState(ok2, "DONE");
        awaitState(flaky, "DONE");
        awaitState(failing, "FAILED");
        Thread.sleep(6_000); // the depth gauges are refreshed every 5 s

        String after = scrape();
        assertEquals(2, delta(before, after, "jobqueue_enqueued_total", "ops-ok", null));
        assertEquals(2, delta(before, after, "jobqueue_finished_total", "ops-ok", "outcome=\"done\""));
        assertEquals(1, delta(before, after, "jobqueue_finished_total", "ops-flaky", "outcome=\"retried\""));
        assertEquals(1, delta(before, after, "jobqueue_finished_total", "ops-flaky", "outcome=\"done\""));
        assertEquals(1, delta(before, after, "jobqueue_finished_total", "ops-failing", "outcome=\"failed\""));
        assertEquals(2, delta(before, after, "jobqueue_execution_time_seconds_count", "ops-ok", null));
        assertEquals(2, delta(before, after, "jobqueue_wait_time_seconds_count", "ops-ok", null));
        if (TestServer.isWildFly()) {
            // Micrometer's timers there give count, sum and maximum, and no quantiles.
            assertTrue(value(after, "jobqueue_execution_time_seconds_max", "ops-ok", null) > 0,
                    "the maximum is published");
        } else {
            assertTrue(value(after, "jobqueue_execution_time_seconds", "ops-ok", "quantile=\"0.99\"") >= 0,
                    "p99 is published");
        }
        assertTrue(value(after, "jobqueue_depth", "ops-failing", "state=\"failed\"") >= 1, after);
        assertEquals(0, value(after, "jobqueue_depth", "ops-ok", "state=\"pending\""));
        assertEquals(0, value(after, "jobqueue_stuck", "ops-ok", null));
    }

    @Test
    void every_counter_of_the_applications_queues_is_scraped_at_zero_before_its_first_use() throws Exception {
        String scrape = scrape();

        // ops-outbound is producer-only here: nothing here runs its jobs, so these never count.
        for (String outcome : List.of("done", "retried", "failed")) {
            assertTrue(has(scrape, "jobqueue_finished_total", "ops-outbound", "outcome=\"" + outcome + "\""), scrape);
            assertEquals(0, value(scrape, "jobqueue_finished_total", "ops-outbound", "outcome=\"" + outcome + "\""));
        }
        assertTrue(has(scrape, "jobqueue_leases_rescued_total", "ops-outbound", null), scrape);
        assertTrue(has(scrape, "jobqueue_enqueued_total", "ops-outbound", null), scrape);
        assertTrue(has(scrape, "jobqueue_execution_time_seconds_count", "ops-outbound", null), scrape);
        assertTrue(has(scrape, "jobqueue_leases_rescued_total", "ops-failing", null), scrape);
    }

    @Test
    void queues_the_application_neither_consumes_nor_declares_share_one_series() throws Exception {
        String before = scrape();
        List<JobId> put = new ArrayList<>();
        try {
            for (int tenant = 0; tenant < 20; tenant++) {
                put.add(jobs.put("ops-tenant-" + tenant, "x"));
            }
            put.add(jobs.put("ops-outbound", "y"));

            String after = scrape();
            assertEquals(20, delta(before, after, "jobqueue_enqueued_total", "(other)", null), after);
            assertFalse(after.contains("queue=\"ops-tenant-"), "no series per undeclared queue: " + after);
            assertEquals(1, delta(before, after, "jobqueue_enqueued_total", "ops-outbound", null),
                    "a queue marked producer-only has its own series");
            assertEquals(0, delta(before, after, "jobqueue_enqueued_total", "ops-ok", null));
        } finally {
            put.forEach(admin::delete);
        }
    }

    @Test
    void readiness_is_up_with_the_database_check_and_carries_no_error_text() throws Exception {
        HttpResponse<String> ready = Http.health("/health/ready");

        assertEquals(200, ready.statusCode(), ready.body());
        String body = ready.body().replaceAll("\\s", "");
        assertTrue(body.matches("\\{.*\"status\":\"UP\".*") && body.contains("\"name\":\"jobqueue-database\""),
                body);
        Matcher check = Pattern.compile("\"name\":\"jobqueue-database\",\"status\":\"(\\w+)\"|"
                + "\"status\":\"(\\w+)\"[^{}]*\"name\":\"jobqueue-database\"").matcher(body);
        assertTrue(check.find(), body);
        assertEquals("UP", check.group(1) != null ? check.group(1) : check.group(2), body);
        assertFalse(body.contains("\"error\""), "an UP check carries no error data: " + body);
    }

    @Test
    void liveness_goes_down_when_a_poller_stops_and_up_when_it_runs_again() throws Exception {
        assertEquals(200, Http.health("/health/live").statusCode(), Http.health("/health/live").body());
        HttpResponse<String> ready = Http.health("/health/ready");
        assertEquals(200, ready.statusCode(), ready.body());
        assertTrue(ready.body().contains("jobqueue-database"), ready.body());

        dispatcher.stopPolling("ops-ok");
        try {
            assertTrue(Await.until(() -> status("/health/live") == 503, WAIT), "liveness went DOWN");
            String live = Http.health("/health/live").body();
            assertTrue(live.contains("poller ops-ok"), live);
        } finally {
            dispatcher.startPolling("ops-ok");
        }
        assertTrue(Await.until(() -> status("/health/live") == 200, WAIT), "liveness is UP again");
    }

    @Test
    void retries_give_ups_and_rescues_are_observable_as_cdi_events() throws Exception {
        JobId flaky = jobs.put("ops-flaky", "event");
        JobId failing = jobs.put("ops-failing", "event");
        transaction.begin();
        JobId stranded = jobs.put("ops-ok", "stranded");
        table.strandOnDeadNode(stranded);
        transaction.commit();

        assertTrue(Await.until(() -> events.of(JobRetried.class, flaky).size() == 1, WAIT));
        JobRetried retried = events.of(JobRetried.class, flaky).get(0);
        assertEquals("ops-flaky", retried.queue());
        assertEquals(1, retried.attempt());
        assertTrue(retried.error().contains("first attempt fails: event"), retried.error());
        assertTrue(retried.nextRunAt().isAfter(retried.failedAt()));

        assertTrue(Await.until(() -> events.of(JobFailed.class, failing).size() == 1, WAIT));
        assertEquals(1, events.of(JobFailed.class, failing).get(0).attempts());

        assertTrue(Await.until(() -> events.of(LeaseRescued.class, stranded).size() == 1, WAIT));
        LeaseRescued rescued = events.of(LeaseRescued.class, stranded).get(0);
        assertEquals(1, rescued.attempt());
        assertTrue(rescued.rescuedAt().isAfter(rescued.leaseExpiredAt()));
        awaitState(stranded, "DONE");
    }

    private void awaitState(JobId id, String state) throws Exception {
        assertTrue(Await.until(() -> state.equals(table.state(id)), WAIT), id + " reaches " + state);
    }

    private static int status(String path) {
        try {
            return Http.health(path).statusCode();
        } catch (Exception e) {
            return -1;
        }
    }

    private static String scrape() throws Exception {
        // WildFly: Micrometer's Prometheus registry on the management interface (wildfly-config's
        // micrometer-prometheus.cli); elsewhere MicroProfile Metrics' application scope.
        HttpResponse<String> response = TestServer.isWildFly() ? Http.health("/prometheus")
                : Http.get("/metrics?scope=application");
        assertEquals(200, response.statusCode(), response.body());
        return response.body();
    }

    private static double delta(String before, String after, String name, String queue, String tag) {
        return value(after, name, queue, tag) - value(before, name, queue, tag);
    }

    private static boolean has(String scrape, String name, String queue, String tag) {
        return sample(scrape, name, queue, tag) != null;
    }

    /** The value of the sample with this name, queue and (optionally) another tag; 0 if there is none. */
    private static double value(String scrape, String name, String queue, String tag) {
        String sample = sample(scrape, name, queue, tag);
        return sample == null ? 0 : Double.parseDouble(sample);
    }

    private static String sample(String scrape, String name, String queue, String tag) {
        Pattern line = Pattern.compile("^" + Pattern.quote(name) + "\\{([^}]*)\\}\\s+(\\S+)$", Pattern.MULTILINE);
        Matcher matcher = line.matcher(scrape);
        while (matcher.find()) {
            String tags = matcher.group(1);
            if (tags.contains("queue=\"" + queue + "\"") && (tag == null || tags.contains(tag))) {
                return matcher.group(2);
            }
        }
        return null;
    }
}
