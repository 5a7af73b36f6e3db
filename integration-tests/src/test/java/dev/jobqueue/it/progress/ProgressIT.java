package dev.jobqueue.it.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.JobAdmin;
import dev.jobqueue.JobAdmin.Progress;
import dev.jobqueue.JobContext;
import dev.jobqueue.JobId;
import dev.jobqueue.JobQueue;
import dev.jobqueue.it.Await;
import dev.jobqueue.it.Deployments;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A consumer's progress reports ({@link JobContext#progress}) as the admin API shows them: written while the job
 * runs and within about a second, the latest of many, kept when the attempt's transaction rolls back, none for a
 * retry until it reports, and refused out of bounds.
 */
@ExtendWith(ArquillianExtension.class)
class ProgressIT {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @Deployment
    static WebArchive app() {
        return Deployments.war("progress", "progress", ProgressConsumers.class);
    }

    @Inject
    JobQueue jobs;

    @Inject
    JobAdmin admin;

    @Test
    void a_running_job_shows_its_latest_report_a_rollback_keeps_it_and_a_retry_starts_without_one()
            throws Exception {
        ProgressConsumers.firstGoesOn = new CountDownLatch(1);
        ProgressConsumers.secondReports = new CountDownLatch(1);
        ProgressConsumers.secondEnds = new CountDownLatch(1);
        JobId id = jobs.put("progress-work", "report");
        try {
            assertTrue(Await.until(() -> progress(id) != null, Duration.ofSeconds(5)), "written within about a second");
            assertEquals(new Progress(0.25, "a quarter", 1, progress(id).reportedAt()), progress(id));
            assertEquals("RUNNING", state(id));

            ProgressConsumers.firstGoesOn.countDown();
            assertTrue(Await.until(() -> "PENDING".equals(state(id)) && progress(id) != null
                    && progress(id).fraction() == 1.0, WAIT), () -> state(id) + " " + progress(id));
            assertEquals("step 1000", progress(id).note(), "the last of a thousand reports, after the rollback");

            assertTrue(Await.until(() -> ProgressConsumers.attemptsStarted.contains(2), WAIT));
            assertNull(progress(id), "the retry has reported nothing yet");
            ProgressConsumers.secondReports.countDown();
            assertTrue(Await.until(() -> progress(id) != null, Duration.ofSeconds(5)));
            assertEquals(2, progress(id).attempt());
            assertEquals("the second attempt, <b>half</b> way", progress(id).note(), "stored as the text it was");
        } finally {
            ProgressConsumers.firstGoesOn.countDown();
            ProgressConsumers.secondReports.countDown();
            ProgressConsumers.secondEnds.countDown();
        }
        assertTrue(Await.until(() -> "DONE".equals(state(id)), WAIT), () -> state(id));
    }

    @Test
    void a_report_out_of_bounds_is_refused_with_the_value_it_had() throws Exception {
        JobId id = jobs.put("progress-bounds", "bounds");

        assertTrue(Await.until(() -> "DONE".equals(state(id)), WAIT), () -> state(id));
        assertEquals(List.of("jobqueue: progress must be a fraction from 0 to 1, was -0.1",
                "jobqueue: progress must be a fraction from 0 to 1, was 1.5",
                "jobqueue: progress must be a fraction from 0 to 1, was NaN",
                "jobqueue: a progress note has at most 200 characters, this one 201"), ProgressConsumers.refusals);
        assertTrue(Await.until(() -> progress(id) != null, Duration.ofSeconds(5)));
        assertEquals(1.0, progress(id).fraction());
        assertEquals(JobContext.MAX_PROGRESS_NOTE, progress(id).note().length());
    }

    private String state(JobId id) {
        return admin.job(id, 0).orElseThrow().summary().state();
    }

    private Progress progress(JobId id) {
        return admin.job(id, 0).orElseThrow().progress();
    }
}
