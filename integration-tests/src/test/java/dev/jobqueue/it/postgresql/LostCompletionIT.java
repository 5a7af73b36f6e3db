package dev.jobqueue.it.postgresql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.JobAdmin;
import dev.jobqueue.JobAdmin.JobSummary;
import dev.jobqueue.JobId;
import dev.jobqueue.JobQueue;
import dev.jobqueue.it.Await;
import dev.jobqueue.it.Deployments;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A job whose own completion loses its database connection every time: it is handed back 3 times with its attempt
 * not counted, as after a failover, and then its attempt counts (JQ046), until it is FAILED after its last one.
 * Tagged {@code postgresql}: only PostgreSQL lets a test cut one backend's connection.
 */
@Tag("postgresql")
@ExtendWith(ArquillianExtension.class)
class LostCompletionIT {

    @Deployment
    static WebArchive app() {
        return Deployments.war("cut-connection", "cut-connection", ConnectionCutter.class,
                ConnectionCutter.Terminator.class);
    }

    @Inject
    JobQueue jobs;

    @Inject
    JobAdmin admin;

    @Inject
    ConnectionCutter consumer;

    @Test
    void a_job_whose_completion_keeps_losing_its_connection_fails_after_its_attempts_instead_of_running_for_ever()
            throws Exception {
        String report = "report " + UUID.randomUUID();
        JobId id = jobs.put(ConnectionCutter.QUEUE, report);

        assertTrue(Await.until(() -> admin.job(id).map(job -> job.summary().state().equals("FAILED")).orElse(false),
                Duration.ofSeconds(60)), () -> "FAILED; it is " + admin.job(id).map(job -> job.summary().state())
                + " after " + consumer.calls(report) + " calls");

        assertEquals(8, consumer.calls(report), "2 attempts, each handed back 3 times and then counted");
        JobSummary job = admin.job(id).orElseThrow().summary();
        assertEquals(2, job.attempts());
        assertTrue(job.lastError().contains("JQ046"), job.lastError());
        assertTrue(Await.until(() -> consumer.failedEvents().stream().filter(event -> event.id().equals(id)).count() == 1,
                Duration.ofSeconds(5)), "one JobFailed");
    }
}
