package dev.jobqueue.it.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.DuplicateJobException;
import dev.jobqueue.DuplicatePolicy;
import dev.jobqueue.GroupFinished;
import dev.jobqueue.JobAdmin;
import dev.jobqueue.JobAdmin.GroupProgress;
import dev.jobqueue.JobId;
import dev.jobqueue.JobOptions;
import dev.jobqueue.JobQueue;
import dev.jobqueue.it.Await;
import dev.jobqueue.it.Deployments;
import dev.jobqueue.it.app.PlacedOrder;
import dev.jobqueue.it.options.Runs.Run;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import jakarta.transaction.UserTransaction;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Run-at, priority, dedupe keys, dependencies, ordering keys and groups, on a real server and database. */
@ExtendWith(ArquillianExtension.class)
class OptionsIT {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @Deployment
    static WebArchive app() {
        return Deployments.war("options", "options", Runs.class, Run.class, OptionConsumers.class, Puts.class,
                PlacedOrder.class);
    }

    @Inject
    JobQueue jobs;

    @Inject
    JobAdmin admin;

    @Inject
    Runs runs;

    @EJB
    Puts puts;

    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    ManagedExecutorService executor;

    @Resource(lookup = "java:comp/UserTransaction")
    UserTransaction transaction;

    @Test
    void a_retry_starts_when_its_backoff_ends_not_at_the_next_regular_poll() throws Exception {
        String tag = "retry-" + UUID.randomUUID();
        jobs.put("retry-on-time", tag);

        // The queue polls every hour: only the wake-up set by the failed attempt can start the retry.
        assertTrue(Await.until(() -> runs.of(tag).size() == 2, WAIT), () -> "ran " + runs.of(tag));
        Run failed = runs.of(tag).get(0);
        Run retried = runs.of(tag).get(1);
        assertEquals(List.of(1, 2), List.of(failed.attempt(), retried.attempt()));
        Duration late = Duration.between(failed.endedAt().plusSeconds(1), retried.startedAt());
        System.out.println("retry-on-time: retry started " + late.toMillis() + " ms after its 1 s backoff ended");
        assertFalse(late.isNegative(), "not before its backoff ended: " + late);
    }

    @Test
    void concurrent_puts_with_one_dedupe_key_make_exactly_one_job() throws Exception {
        String key = "report-" + UUID.randomUUID();
        int threads = 12;
        admin.pause("deduped");
        Set<JobId> ids = new HashSet<>();
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<JobId>> results = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                String payload = "dedupe-" + i + "-" + key;
                results.add(executor.submit(() -> {
                    start.await();
                    // Each transaction stays open a while after its put, so the puts overlap.
                    return puts.putAndHold("deduped", payload, JobOptions.defaults().key(key), 300);
                }));
            }
            start.countDown();
            for (Future<JobId> result : results) {
                ids.add(result.get());
            }
            assertEquals(1, ids.size(), "every put returned the one job's id");
            assertEquals(1, puts.rowsWithKey("deduped", key), "one row holds the key");
        } finally {
            admin.resume("deduped");
        }
        assertTrue(Await.until(() -> runs.succeeded("dedupe-").stream().anyMatch(p -> p.endsWith(key)), WAIT));
        Thread.sleep(500);
        assertEquals(1, runs.of("dedupe-").stream().filter(run -> run.payload().endsWith(key)).count(),
                "the key's job ran once");
    }

    @Test
    void replace_updates_a_job_that_has_not_started_and_a_finished_job_frees_its_key() throws Exception {
        String key = "replace-" + UUID.randomUUID();
        JobId first = jobs.put("deduped", "old-" + key, JobOptions.defaults().key(key).delay(Duration.ofHours(1)));
        JobId second = jobs.put("deduped", "new-" + key, JobOptions.defaults().key(key, DuplicatePolicy.REPLACE));

        assertEquals(first, second, "REPLACE returns the job that holds the key");
        assertTrue(Await.until(() -> runs.succeeded("new-" + key).size() == 1, WAIT),
                "the replaced payload ran at the replaced time");
        assertTrue(runs.of("old-" + key).isEmpty(), "the old payload never ran");
        // The consumer records its run before the transaction that marks the job DONE commits.
        assertTrue(Await.until(() -> "DONE".equals(puts.state(first)), WAIT), "the job is DONE");

        JobId third = jobs.put("deduped", "again-" + key, JobOptions.defaults().key(key));
        assertNotEquals(first, third, "a DONE job no longer holds its key");
    }

    @Test
    void reject_throws_naming_the_holder_and_leaves_the_callers_transaction_to_commit() {
        String key = "reject-" + UUID.randomUUID();
        JobId held = jobs.put("deduped", "held-" + key, JobOptions.defaults().key(key).delay(Duration.ofHours(1)));

        DuplicateJobException rejected = assertThrows(DuplicateJobException.class,
                () -> jobs.put("deduped", "other-" + key, JobOptions.defaults().key(key, DuplicatePolicy.REJECT)));
        assertEquals(held, rejected.existing());
        assertTrue(rejected.getMessage().contains(key), rejected.getMessage());
        assertEquals(held, jobs.put("deduped", "ignored-" + key, JobOptions.defaults().key(key)),
                "IGNORE, the default, returns the holder");

        String orderId = "order-" + UUID.randomUUID();
        assertNull(puts.placeOrderRejectingDuplicates(orderId, "deduped", key));
        assertTrue(puts.orderExists(orderId), "the order saved in the same transaction committed");
        assertEquals(1, puts.rowsWithKey("deduped", key));
    }

    @Test
    void a_scheduled_job_is_not_claimed_before_its_time_and_starts_within_a_poll_interval_after_it()
            throws Exception {
        String tag = UUID.randomUUID().toString();
        Instant before = Instant.now();
        jobs.put("scheduled", "delayed-" + tag, JobOptions.defaults().delay(Duration.ofMillis(1500)));
        Instant after = Instant.now();
        jobs.put("scheduled", "overdue-" + tag, JobOptions.defaults().runAt(before.minusSeconds(60)));

        assertTrue(Await.until(() -> runs.succeeded("overdue-" + tag).size() == 1, WAIT), "a past time means now");
        assertTrue(runs.of("delayed-" + tag).isEmpty(), "not started early");
        assertTrue(Await.until(() -> runs.succeeded("delayed-" + tag).size() == 1, WAIT));
        Instant started = runs.of("delayed-" + tag).get(0).startedAt();
        assertFalse(started.isBefore(before.plusMillis(1500)), "started at " + started + ", put at " + before);
        // Due by after + 1.5 s; the poll interval is 200 ms; the rest is slack for a loaded machine.
        assertTrue(started.isBefore(after.plusMillis(1500 + 200 + 1000)), "started at " + started);
    }

    @Test
    void higher_priorities_are_claimed_first_and_equal_priorities_oldest_first() throws Exception {
        String tag = UUID.randomUUID().toString();
        // All due a second ago: a claim takes the jobs due by the time it read before its statement, and a claim
        // woken by a put during the pause can read that time before the last puts and run after the resume.
        // Jobs put "at once" a few milliseconds apart would then be split between two claims.
        JobOptions due = JobOptions.defaults().runAt(Instant.now().minusSeconds(1));
        admin.pause("prioritised");
        try {
            jobs.put("prioritised", "prio-" + tag + "-low-1", due.priority(-10));
            jobs.put("prioritised", "prio-" + tag + "-high-1", due.priority(50));
            jobs.put("prioritised", "prio-" + tag + "-normal-1", due);
            jobs.put("prioritised", "prio-" + tag + "-low-2", due.priority(-10));
            jobs.put("prioritised", "prio-" + tag + "-high-2", due.priority(50));
            jobs.put("prioritised", "prio-" + tag + "-normal-2", due);
        } finally {
            admin.resume("prioritised");
        }
        assertTrue(Await.until(() -> runs.succeeded("prio-" + tag).size() == 6, WAIT));
        assertEquals(List.of("high-1", "high-2", "normal-1", "normal-2", "low-1", "low-2"),
                runs.succeeded("prio-" + tag).stream().map(p -> p.substring(("prio-" + tag + "-").length())).toList());
    }

    @Test
    void jobs_with_one_ordering_key_run_one_at_a_time_in_put_order_and_a_failing_one_blocks_only_its_key()
            throws Exception {
        String tag = UUID.randomUUID().toString();
        String a = "ord-" + tag + "-a-";
        String b = "ord-" + tag + "-b-";
        String free = "ord-" + tag + "-free-";
        runs.setFailing(true);
        admin.pause("ordered");
        try {
            for (int i = 1; i <= 5; i++) {
                jobs.put("ordered", a + i + (i == 2 ? "!" : ""), JobOptions.defaults().orderingKey("a-" + tag));
                jobs.put("ordered", b + i, JobOptions.defaults().orderingKey("b-" + tag));
                jobs.put("ordered", free + i);
            }
        } finally {
            admin.resume("ordered");
        }
        assertTrue(Await.until(() -> runs.succeeded(b).size() == 5 && runs.succeeded(free).size() == 5, WAIT),
                "the other key and the jobs without a key kept flowing");
        assertEquals(List.of(a + 1), runs.succeeded(a), "key a waits behind its failing job");
        assertTrue(runs.of(a + 2).stream().noneMatch(Run::succeeded) && !runs.of(a + 2).isEmpty());

        runs.setFailing(false);
        assertTrue(Await.until(() -> runs.succeeded(a).size() == 5, WAIT));
        assertEquals(List.of(a + 1, a + "2!", a + 3, a + 4, a + 5), runs.succeeded(a));
        assertEquals(List.of(b + 1, b + 2, b + 3, b + 4, b + 5), runs.succeeded(b));
        assertOneAtATime(runs.of(a));
        assertOneAtATime(runs.of(b));
    }

    @Test
    void when_a_job_with_an_ordering_key_gives_up_the_next_job_of_its_key_runs() throws Exception {
        String tag = UUID.randomUUID().toString();
        JobId doomed = jobs.put("ordered-give-up", "give-up-" + tag + "-1!", JobOptions.defaults().orderingKey(tag));
        jobs.put("ordered-give-up", "give-up-" + tag + "-2", JobOptions.defaults().orderingKey(tag));

        assertTrue(Await.until(() -> runs.succeeded("give-up-" + tag + "-2").size() == 1, WAIT));
        assertEquals("FAILED", puts.state(doomed));
        assertEquals(2, runs.of("give-up-" + tag + "-1!").size(), "both attempts ran before the next job");
        assertOneAtATime(runs.of("give-up-" + tag));
    }

    @Test
    void a_job_waits_until_every_job_it_depends_on_is_done() throws Exception {
        String tag = UUID.randomUUID().toString();
        runs.setFailing(true);
        JobId first = jobs.put("dependencies", "slow-" + tag + "-1");
        JobId second = jobs.put("dependencies", "slow-" + tag + "-2");
        JobId dependent = jobs.put("dependencies", "dependent-" + tag, JobOptions.defaults().after(first, second));

        assertEquals("WAITING", puts.state(dependent));
        Thread.sleep(500);
        assertTrue(runs.of("dependent-" + tag).isEmpty(), "not run while the jobs it waits for run");
        runs.setFailing(false);
        assertTrue(Await.until(() -> runs.succeeded("dependent-" + tag).size() == 1, WAIT));
        Instant started = runs.of("dependent-" + tag).get(0).startedAt();
        for (Run run : runs.of("slow-" + tag)) {
            assertFalse(started.isBefore(run.endedAt()), "started after " + run.payload() + " ended");
        }

        JobId late = jobs.put("dependencies", "late-" + tag, JobOptions.defaults().after(first));
        assertTrue(Await.until(() -> runs.succeeded("late-" + tag).size() == 1, WAIT),
                "a job put after its dependency is DONE runs at once");
        assertTrue(Await.until(() -> "DONE".equals(puts.state(late)), WAIT), "the late job is DONE");
    }

    @Test
    void when_a_job_fails_the_jobs_that_wait_for_it_fail_too_naming_it() throws Exception {
        String tag = UUID.randomUUID().toString();
        transaction.begin();
        JobId doomed = jobs.put("dependencies", "doomed-" + tag + "!");
        JobId child = jobs.put("dependencies", "child-" + tag, JobOptions.defaults().after(doomed));
        JobId grandchild = jobs.put("dependencies", "grandchild-" + tag, JobOptions.defaults().after(child));
        transaction.commit();

        assertTrue(Await.until(() -> "FAILED".equals(puts.state(grandchild)), WAIT));
        for (JobId id : List.of(child, grandchild)) {
            String[] row = puts.stateAndError(id);
            assertEquals("FAILED", row[0]);
            assertTrue(row[1].contains(doomed.toString()), row[1]);
            // Fired after the commit that made the job FAILED: on a busy machine, a moment after the row says so.
            assertTrue(Await.until(() -> runs.failures().stream().anyMatch(failed -> failed.id().equals(id)), WAIT),
                    "JobFailed fired");
        }
        assertTrue(runs.of("child-" + tag).isEmpty() && runs.of("grandchild-" + tag).isEmpty(), "never ran");

        JobId late = jobs.put("dependencies", "late-" + tag, JobOptions.defaults().after(doomed));
        String[] row = puts.stateAndError(late);
        assertEquals("FAILED", row[0], "a job put after its dependency FAILED fails at once");
        assertTrue(row[1].contains(doomed.toString()), row[1]);
    }

    @Test
    void a_non_transactional_queue_marks_every_job_done_once_and_releases_the_jobs_that_wait_for_them()
            throws Exception {
        String tag = UUID.randomUUID().toString();
        int count = 500;
        List<JobId> put = new ArrayList<>();
        transaction.begin();
        JobId first = jobs.put("untransacted", tag + "-0");
        put.add(first);
        for (int i = 1; i < count; i++) {
            put.add(jobs.put("untransacted", tag + "-" + i));
        }
        JobId dependent = jobs.put("untransacted", "dependent-" + tag, JobOptions.defaults().after(first));
        put.add(dependent);
        transaction.commit();

        assertTrue(Await.until(() -> "DONE".equals(puts.state(dependent)), WAIT), "the dependent job is DONE");
        assertTrue(Await.until(() -> puts.rowsInState(put, "DONE") == count + 1, WAIT),
                "every job is DONE: " + puts.rowsInState(put, "DONE"));
        assertEquals(count, runs.of(tag).size(), "each job ran once");
        assertEquals(count, runs.of(tag).stream().map(Run::payload).distinct().count());
        Instant dependentStarted = runs.of("dependent-" + tag).get(0).startedAt();
        assertFalse(dependentStarted.isBefore(runs.of(tag + "-0").get(0).endedAt()),
                "the dependent job started after the job it waits for ended");
    }

    @Test
    void a_non_transactional_queue_without_retention_deletes_its_finished_jobs() throws Exception {
        String tag = UUID.randomUUID().toString();
        int count = 300;
        List<JobId> put = new ArrayList<>();
        transaction.begin();
        for (int i = 0; i < count; i++) {
            put.add(jobs.put("untransacted-unretained", tag + "-" + i));
        }
        transaction.commit();

        assertTrue(Await.until(() -> runs.of(tag).size() == count, WAIT), "every job ran");
        assertTrue(Await.until(() -> puts.rowsInState(put, null) == 0, WAIT),
                "every finished row is deleted: " + puts.rowsInState(put, null) + " left");
        assertEquals(count, runs.of(tag).stream().map(Run::payload).distinct().count(), "each job ran once");
    }

    @Test
    void a_group_reports_its_progress_and_fires_one_event_when_its_last_job_finishes() throws Exception {
        String group = "batch-" + UUID.randomUUID();
        transaction.begin();
        for (String payload : List.of("one", "two", "three!")) {
            jobs.put("grouped", group + "-" + payload, JobOptions.defaults().group(group));
        }
        transaction.commit();

        assertTrue(Await.until(() -> !runs.groupsFinished(group).isEmpty(), WAIT));
        GroupFinished finished = runs.groupsFinished(group).get(0);
        assertEquals(2, finished.done());
        assertEquals(1, finished.failed());
        Thread.sleep(500);
        assertEquals(1, runs.groupsFinished(group).size(), "fired once");
        GroupProgress progress = admin.group(group);
        assertEquals(new GroupProgress(group, 0, 0, 0, 2, 1, 0), progress);
        assertTrue(progress.finished());
        assertEquals(0, admin.group("no-such-" + group).total());
    }

    @Test
    void a_job_put_while_its_queue_is_idle_here_is_running_when_the_put_commits_and_runs_once() throws Exception {
        String payload = "on-put-idle-" + UUID.randomUUID();
        settle();
        JobId id = puts.put("on-put", payload);
        assertNotEquals("PENDING", puts.state(id), "started on this node without waiting for a claim");
        assertTrue(Await.until(() -> "DONE".equals(puts.state(id)), WAIT));
        Thread.sleep(500);
        List<Run> ran = runs.of(payload);
        assertEquals(1, ran.size(), "ran once");
        assertEquals(1, ran.get(0).attempt());
    }

    @Test
    void a_job_put_while_its_idle_queue_is_paused_waits_for_the_resume() throws Exception {
        String payload = "on-put-paused-" + UUID.randomUUID();
        settle();
        admin.pause("on-put");
        JobId id;
        try {
            id = puts.put("on-put", payload);
            assertEquals("PENDING", puts.state(id));
            Thread.sleep(600);
            assertEquals("PENDING", puts.state(id), "not started during three poll intervals");
            assertTrue(runs.of(payload).isEmpty());
        } finally {
            admin.resume("on-put");
        }
        assertTrue(Await.until(() -> "DONE".equals(puts.state(id)), WAIT));
    }

    @Test
    void a_rolled_back_put_gives_back_the_runner_it_held_for_its_job() throws Exception {
        String payload = "on-put-rollback-" + UUID.randomUUID();
        settle();
        for (int i = 0; i < 3; i++) {
            puts.putAndRollBack("on-put", payload + "-rolled-back-" + i);
        }
        JobId id = puts.put("on-put", payload + "-committed");
        assertNotEquals("PENDING", puts.state(id), "the queue's one runner was free to start it at once");
        assertTrue(Await.until(() -> "DONE".equals(puts.state(id)), WAIT));
        Thread.sleep(500);
        assertEquals(List.of(payload + "-committed"), runs.succeeded(payload), "rolled-back jobs never ran");
    }

    /** Waits until the last poll of on-put's earlier jobs has found the queue empty, so it is idle here. */
    private static void settle() throws InterruptedException {
        Thread.sleep(500);
    }

    /** Each run of one key started after the previous one ended. */
    private static void assertOneAtATime(List<Run> keyRuns) {
        for (int i = 1; i < keyRuns.size(); i++) {
            Run previous = keyRuns.get(i - 1);
            Run next = keyRuns.get(i);
            assertFalse(next.startedAt().isBefore(previous.endedAt()),
                    next.payload() + " started before " + previous.payload() + " ended");
        }
    }
}
