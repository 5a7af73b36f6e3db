package dev.jobqueue.it.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.JobAdmin;
import dev.jobqueue.JobAdmin.FlowControl;
import dev.jobqueue.JobId;
import dev.jobqueue.JobQueue;
import dev.jobqueue.it.AdminHttp;
import dev.jobqueue.it.Await;
import dev.jobqueue.it.Deployments;
import dev.jobqueue.it.lifecycle.LogCapture;
import dev.jobqueue.it.limits.LimitConsumers.Call;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.transaction.UserTransaction;
import java.io.StringReader;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A queue's cluster-wide limits on one server: a rate limit, max-running, a consumer's backoff, an admin's override,
 * and a corrupt row. {@code FlowControlIT} in failure-tests holds the limits across three servers and faults.
 */
@ExtendWith(ArquillianExtension.class)
class QueueLimitsIT {

    private static final String APP = "limits";
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Deployment
    static WebArchive app() {
        return Deployments.war(APP, APP, LimitConsumers.class, Call.class, QueueRows.class, LogCapture.class,
                AdminHttp.class);
    }

    @Inject
    JobQueue jobs;

    @Inject
    JobAdmin admin;

    @Inject
    LimitConsumers consumers;

    @Inject
    QueueRows rows;

    @Resource(lookup = "java:comp/UserTransaction")
    UserTransaction transaction;

    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    ManagedExecutorService executor;

    /**
     * Another node makes the queue's row (a claim of a limited queue does, every poll) between a pause's or a
     * set-limits' update, which finds no row, and its insert: the admin's write still lands, with no 500.
     */
    @Test
    void a_pause_or_a_limit_set_while_another_node_makes_the_queues_row_lands_without_an_error() throws Exception {
        for (boolean pause : new boolean[] {true, false}) {
            CountDownLatch made = new CountDownLatch(1);
            CountDownLatch commit = new CountDownLatch(1);
            Future<?> otherNode = executor.submit(() -> {
                rows.makeRowAndCommitLater("contested", made, commit);
                return null;
            });
            assertTrue(made.await(30, TimeUnit.SECONDS));
            Future<?> write = executor.submit(() -> {
                if (pause) {
                    admin.pause("contested");
                } else {
                    admin.setLimits("contested", "7/1s", null);
                }
                return null;
            });
            Thread.sleep(300); // the admin's write now waits for the other node's uncommitted row
            commit.countDown();
            otherNode.get(30, TimeUnit.SECONDS);
            write.get(30, TimeUnit.SECONDS);

            if (pause) {
                assertTrue(rows.paused("contested"), "paused");
            } else {
                assertEquals("7/1s", rows.overrideAndWindow("contested").get(0));
            }
        }
        admin.setLimits("contested", null, null);
        admin.resume("contested");
    }

    @Test
    void jobs_claimed_ahead_of_the_runners_are_called_no_faster_than_the_rate_limit_allows() throws Exception {
        String tag = "ahead-" + UUID.randomUUID();
        putAll("rated-ahead", tag, 600);

        assertTrue(Await.until(() -> consumers.calls(tag).size() == 600, WAIT),
                () -> "ran " + consumers.calls(tag).size());
        List<Long> calls = consumers.calls(tag).stream().map(call -> call.at().toEpochMilli()).sorted().toList();
        // The window counts a start at its claim, or at the deadline of one taken ahead; a call comes a little
        // later, by as much as a pause of the server: 100 ms of the period are left for that.
        int busiest = busiest(calls, 400);
        long span = calls.get(calls.size() - 1) - calls.get(0);
        System.out.println("rated-ahead 100/500ms: 600 calls over " + span + " ms, at most " + busiest
                + " in 400 ms");
        assertTrue(busiest <= 100, "at most 100 calls in any 400 ms, by the consumer's clock: " + busiest);
        assertTrue(span >= 2_500, "600 jobs at 100 per 500 ms take at least 2.5 s: " + span + " ms");
        assertTrue(span < 6_000, "the backlog gets at least half the limit: " + span + " ms");
    }

    @Test
    void a_rate_limit_lets_no_more_jobs_start_in_any_period_than_it_allows_and_a_backlog_gets_it_all() throws Exception {
        String tag = "rate-" + UUID.randomUUID();
        putAll("rated", tag, 12);

        assertTrue(Await.until(() -> consumers.calls(tag).size() == 12, WAIT), () -> "ran " + consumers.calls(tag));
        List<Long> all = rows.startedAt("rated", "");
        int busiest = busiestSecond(all);
        List<Long> starts = rows.startedAt("rated", tag);
        long span = starts.get(starts.size() - 1) - starts.get(0);
        System.out.println("rated 4/1s: 12 jobs started over " + span + " ms, at most " + busiest + " in a second");
        assertTrue(busiest <= 4, "at most 4 starts in any second: " + busiest + " in " + all);
        assertTrue(span >= 2_000, "12 jobs at 4 a second take at least 2 s: " + span + " ms");
        assertTrue(span < 4_500, "the backlog gets the whole limit, started at 4 a second: " + span + " ms");
        FlowControl flow = queue("rated");
        assertEquals("4/1s", flow.rateLimit());
        assertFalse(flow.overridden());
    }

    @Test
    void max_running_caps_the_jobs_running_at_once_below_the_runners() throws Exception {
        String tag = "capped-" + UUID.randomUUID();
        consumers.resetMostRunning("capped");
        putAll("capped", tag, 10);

        assertTrue(Await.until(() -> consumers.calls(tag).size() == 10, WAIT), () -> "ran " + consumers.calls(tag));
        assertEquals(2, consumers.mostRunning("capped"), "six runners, max-running 2: two at a time");
        assertEquals(2, queue("capped").maxRunning());
    }

    @Test
    void a_consumer_backoff_stops_the_queue_for_its_wait_and_its_attempt_is_not_counted() throws Exception {
        String tag = "backoff-" + UUID.randomUUID();
        JobId told = jobs.put("backing-off", "429-" + tag);
        assertTrue(Await.until(() -> consumers.calls("429-" + tag).size() == 1, WAIT));
        Instant toldAt = consumers.calls("429-" + tag).get(0).at();
        assertTrue(Await.until(() -> queue("backing-off").backoffUntil() != null, WAIT), "the backoff is recorded");
        putAll("backing-off", tag, 4);

        assertTrue(Await.until(() -> consumers.calls(tag).size() == 4 && consumers.calls("429-" + tag).size() == 2,
                WAIT), () -> "ran " + consumers.calls(tag) + consumers.calls("429-" + tag));
        for (Call call : consumers.calls(tag)) {
            assertFalse(call.at().isBefore(toldAt.plusMillis(1_400)), "no job starts during the 1.5 s wait: "
                    + call + ", told at " + toldAt);
        }
        Instant again = consumers.calls("429-" + tag).get(1).at();
        assertFalse(again.isBefore(toldAt.plusMillis(1_400)), "the job that was told runs again after the wait");
        assertTrue(Await.until(() -> "DONE".equals(rows.state(told)), WAIT));
        assertEquals(1, rows.attempts(told), "the attempt that was told to back off is not counted");
    }

    @Test
    void an_admin_sets_a_limit_on_a_queue_that_has_none_and_gives_it_back_to_the_configuration() throws Exception {
        HttpResponse<String> set = AdminHttp.put(APP, "/queues/adjustable/limits", "{\"maxRunning\":1}");
        assertEquals(204, set.statusCode(), set.body());
        try {
            FlowControl flow = queue("adjustable");
            assertEquals(1, flow.maxRunning());
            assertTrue(flow.overridden());
            // A node whose configuration sets no limit for the queue looks for one every 5 s.
            Thread.sleep(5_500);
            String tag = "adjustable-" + UUID.randomUUID();
            consumers.resetMostRunning("adjustable");
            putAll("adjustable", tag, 6);
            assertTrue(Await.until(() -> consumers.calls(tag).size() == 6, WAIT));
            assertEquals(1, consumers.mostRunning("adjustable"), "six runners, one at a time under the admin's limit");
        } finally {
            assertEquals(204, AdminHttp.put(APP, "/queues/adjustable/limits", "{}").statusCode());
        }
        FlowControl back = queue("adjustable");
        assertEquals(0, back.maxRunning());
        assertFalse(back.overridden());
    }

    @Test
    void bad_limits_get_a_coded_400_and_an_unknown_queue_a_404_with_nothing_changed() throws Exception {
        HttpResponse<String> badRate = AdminHttp.put(APP, "/queues/rated/limits", "{\"rateLimit\":\"lots\"}");
        assertEquals(400, badRate.statusCode(), badRate.body());
        JsonObject error = Json.createReader(new StringReader(badRate.body())).readObject();
        assertEquals("JQ070", error.getString("code"));
        assertTrue(error.getString("error").contains("50/1s"), error.getString("error"));
        assertEquals(400, AdminHttp.put(APP, "/queues/rated/limits", "{\"maxRunning\":-1}").statusCode());
        assertEquals(404, AdminHttp.put(APP, "/queues/no-such-queue/limits", "{\"maxRunning\":1}").statusCode());
        assertEquals("4/1s", queue("rated").rateLimit());
    }

    @Test
    void an_unreadable_override_or_window_is_logged_and_rewritten_and_the_queue_runs_on() throws Exception {
        String warm = "warm-" + UUID.randomUUID();
        jobs.put("rated", warm);
        assertTrue(Await.until(() -> consumers.calls(warm).size() == 1, WAIT));
        try (LogCapture log = new LogCapture("dev.jobqueue.internal.store.QueueFlow")) {
            rows.corrupt("rated", "fast please", "garbage");
            String tag = "after-corruption-" + UUID.randomUUID();
            jobs.put("rated", tag);

            assertTrue(Await.until(() -> consumers.calls(tag).size() == 1, WAIT), "the queue runs on");
            assertFalse(log.recordsMentioning("JQ093").isEmpty(), "the bad override is logged");
            assertFalse(log.recordsMentioning("JQ094").isEmpty(), "the unreadable window is logged");
            List<String> row = rows.overrideAndWindow("rated");
            assertNull(row.get(0), "the bad override is cleared");
            assertTrue(row.get(1).matches("\\d+:\\d+(,\\d+:\\d+)*"), "the window is written anew: " + row.get(1));
        }
    }

    private void putAll(String queue, String tag, int count) throws Exception {
        transaction.begin();
        try {
            for (int i = 0; i < count; i++) {
                jobs.put(queue, tag + "-" + i);
            }
            transaction.commit();
        } catch (Exception e) {
            transaction.rollback();
            throw e;
        }
    }

    private FlowControl queue(String name) {
        return admin.queues().stream().filter(stats -> stats.queue().equals(name)).findFirst().orElseThrow().flow();
    }

    /** The most starts in any window of one second, [t, t + 1 s), over sorted start times. */
    private static int busiestSecond(List<Long> sorted) {
        return busiest(sorted, 1_000);
    }

    /** The most starts in any window [t, t + millis), over sorted start times. */
    private static int busiest(List<Long> sorted, long millis) {
        int most = 0;
        int first = 0;
        for (int last = 0; last < sorted.size(); last++) {
            while (sorted.get(last) - sorted.get(first) >= millis) {
                first++;
            }
            most = Math.max(most, last - first + 1);
        }
        return most;
    }
}
