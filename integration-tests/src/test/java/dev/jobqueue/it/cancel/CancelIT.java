package dev.jobqueue.it.cancel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.CancelOutcome;
import dev.jobqueue.GroupFinished;
import dev.jobqueue.JobAdmin;
import dev.jobqueue.JobAdmin.GroupProgress;
import dev.jobqueue.JobAdmin.JobSummary;
import dev.jobqueue.JobId;
import dev.jobqueue.JobOptions;
import dev.jobqueue.JobQueue;
import dev.jobqueue.it.Await;
import dev.jobqueue.it.Deployments;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An operator's cancel of a job that has not started, through {@link JobAdmin#cancel}: the job never runs, frees its
 * dedupe key, fails the jobs that wait for it, counts as finished in its group, fires {@code JobCancelled} once,
 * and can be retried; a RUNNING or finished job is left as it is, and the answer says so.
 */
@ExtendWith(ArquillianExtension.class)
class CancelIT {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @Deployment
    static WebArchive app() {
        return Deployments.war("cancel", "cancel", CancelConsumers.class, CancelRecorder.class);
    }

    @Inject
    JobQueue jobs;

    @Inject
    JobAdmin admin;

    @Inject
    CancelRecorder recorder;

    @BeforeEach
    void holdTheQueue() {
        admin.pause("cancel-work");
    }

    @AfterEach
    void releaseTheQueue() {
        admin.resume("cancel-work");
    }

    @Test
    void a_cancelled_job_never_runs_frees_its_dedupe_key_and_fires_one_event() throws Exception {
        String tag = "key-" + UUID.randomUUID();
        JobId cancelled = jobs.put("cancel-work", tag + "-first", JobOptions.defaults().key(tag));

        assertEquals(CancelOutcome.CANCELLED, admin.cancel(cancelled));

        assertEquals("CANCELLED", state(cancelled));
        JobId again = jobs.put("cancel-work", tag + "-second", JobOptions.defaults().key(tag));
        assertNotEquals(cancelled, again, "the key was free for a new job");
        admin.resume("cancel-work");
        assertTrue(Await.until(() -> recorder.ran().contains(tag + "-second"), WAIT), () -> "ran " + recorder.ran());
        assertTrue(recorder.ran().stream().noneMatch(payload -> payload.equals(tag + "-first")), "never ran");
        assertEquals(1, recorder.cancelled().stream().filter(event -> event.id().equals(cancelled)).count(),
                () -> "JobCancelled once: " + recorder.cancelled());
        assertEquals(CancelOutcome.FINISHED, admin.cancel(cancelled), "a second cancel changes nothing");
        assertEquals(1, recorder.cancelled().stream().filter(event -> event.id().equals(cancelled)).count());
        assertTrue(admin.queues().stream().anyMatch(queue -> queue.queue().equals("cancel-work")
                && queue.cancelled() >= 1), "counted by the queue");
    }

    @Test
    void the_jobs_that_wait_for_a_cancelled_job_fail_with_jq095_and_its_group_finishes() throws Exception {
        String group = "cancel-group-" + UUID.randomUUID();
        JobId parent = jobs.put("cancel-work", "parent", JobOptions.defaults().group(group));
        JobId child = jobs.put("cancel-work", "child", JobOptions.defaults().group(group).after(parent));
        JobId grandchild = jobs.put("cancel-work", "grandchild", JobOptions.defaults().group(group).after(child));

        assertEquals(CancelOutcome.CANCELLED, admin.cancel(parent));

        assertEquals("FAILED", state(child));
        assertEquals("FAILED", state(grandchild));
        assertTrue(summary(child).lastError().startsWith("JQ095: job " + parent), summary(child).lastError());
        assertEquals(new GroupProgress(group, 0, 0, 0, 0, 2, 1), admin.group(group));
        List<GroupFinished> finished = recorder.groups().stream().filter(event -> event.group().equals(group))
                .toList();
        assertEquals(1, finished.size(), () -> "GroupFinished once: " + recorder.groups());
        assertEquals(List.of(0L, 2L, 1L), List.of(finished.get(0).done(), finished.get(0).failed(),
                finished.get(0).cancelled()));
        assertTrue(recorder.failed().stream().anyMatch(event -> event.id().equals(child)), "JobFailed for the child");

        JobId late = jobs.put("cancel-work", "late", JobOptions.defaults().after(parent));
        assertEquals("FAILED", state(late), "a job put after a CANCELLED job fails at once");
        assertTrue(summary(late).lastError().startsWith("JQ095"), summary(late).lastError());
    }

    @Test
    void a_cancelled_job_can_be_retried_and_then_runs() throws Exception {
        String payload = "retried-" + UUID.randomUUID();
        JobId id = jobs.put("cancel-work", payload);
        assertEquals(CancelOutcome.CANCELLED, admin.cancel(id));

        assertTrue(admin.retry(id));

        assertEquals("PENDING", state(id));
        admin.resume("cancel-work");
        assertTrue(Await.until(() -> "DONE".equals(state(id)), WAIT), () -> "state " + state(id));
        assertEquals(1, recorder.ran().stream().filter(payload::equals).count());
    }

    @Test
    void a_running_job_a_finished_one_and_an_unknown_one_are_left_as_they_are() throws Exception {
        CancelConsumers.release = new CountDownLatch(1);
        String payload = "slow-" + UUID.randomUUID();
        JobId running = jobs.put("cancel-slow", payload);
        try {
            assertTrue(Await.until(() -> recorder.ran().contains(payload), WAIT));

            assertEquals(CancelOutcome.RUNNING, admin.cancel(running));
            assertEquals("RUNNING", state(running));
        } finally {
            CancelConsumers.release.countDown();
        }
        assertTrue(Await.until(() -> "DONE".equals(state(running)), WAIT), () -> "state " + state(running));
        assertEquals(CancelOutcome.FINISHED, admin.cancel(running));
        assertEquals(CancelOutcome.NOT_FOUND, admin.cancel(JobId.parse(UUID.randomUUID().toString())));
    }

    private String state(JobId id) {
        return summary(id).state();
    }

    private JobSummary summary(JobId id) {
        return admin.job(id, 0).orElseThrow().summary();
    }
}
