package dev.jobqueue.it.kit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.JobAdmin;
import dev.jobqueue.JobId;
import dev.jobqueue.JobOptions;
import dev.jobqueue.JobQueue;
import dev.jobqueue.it.Deployments;
import dev.jobqueue.it.ServerLog;
import dev.jobqueue.it.kit.KitConsumers.Order;
import dev.jobqueue.test.DrainedJob;
import dev.jobqueue.test.DrainedJob.Outcome;
import dev.jobqueue.test.JobQueueTester;
import dev.jobqueue.test.PutJob;
import dev.jobqueue.test.TestClock;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The test kit, used as a user would: a test deployment with jobqueue-test, a put, then drains and clock steps
 * instead of sleeps.
 */
@Tag("any-database")
@ExtendWith(ArquillianExtension.class)
class JobQueueTesterIT {

    @Deployment
    static WebArchive app() {
        return Deployments.war("kit", "kit", KitConsumers.class, KitConsumers.Order.class,
                KitConsumers.Invoicing.class, KitConsumers.Shipping.class, KitConsumers.Payments.class,
                KitConsumers.NightlyReport.class)
                .addAsLibrary(Deployments.testKitJar());
    }

    @Inject
    JobQueue jobs;

    @Inject
    JobQueueTester tester;

    @Inject
    TestClock clock;

    @Inject
    JobAdmin admin;

    @Inject
    KitConsumers.NightlyReport report;

    @AfterEach
    void cleanUp() {
        if (clock != null) { // null in the test that runs as a client, outside the server
            clock.reset();
        }
    }

    @Test
    @RunAsClient
    void an_application_that_carries_the_kit_warns_at_start_up_that_jobs_run_only_when_drained() {
        assertTrue(ServerLog.records(ServerLog.since(ServerLog.Mark.START)).stream()
                .anyMatch(record -> ServerLog.isWarning(record)
                        && record.contains("JQ036: jobqueue-test is in this application")),
                "a WARNING JQ036 in the server's log");
    }

    @Test
    void a_schedule_is_fired_by_a_trigger_and_its_job_runs_when_the_queue_is_drained() {
        JobId fired = admin.triggerSchedule("kit-nightly");

        List<DrainedJob> drained = tester.drain("kit-nightly-report");

        assertEquals(List.of(fired), drained.stream().map(DrainedJob::id).toList(), drained::toString);
        assertEquals(Outcome.DONE, drained.get(0).outcome());
        assertEquals(List.of("kit-nightly"), report.reported());
    }

    @Test
    void draining_a_queue_this_application_does_not_consume_is_refused_with_the_reason() {
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> tester.drain("kit-elsewhere"));
        assertEquals("this application does not consume queue kit-elsewhere, so nothing here runs its jobs",
                refused.getMessage());
    }

    @Test
    void a_consumer_that_fails_once_is_retried_by_a_clock_step_without_sleeping() {
        JobId id = jobs.put("kit-invoicing", new Order("A-1", 100));

        List<DrainedJob> first = tester.drain("kit-invoicing");
        assertEquals(1, first.size(), first::toString);
        assertEquals(id, first.get(0).id());
        assertEquals(Outcome.RETRIED, first.get(0).outcome(), first::toString);
        assertEquals(1, first.get(0).attempts());
        assertTrue(first.get(0).error().contains("the invoicing service timed out for A-1"), first.get(0).error());

        assertEquals(List.of(), tester.drain("kit-invoicing"), "the retry is not due before its backoff is over");

        clock.advanceTo(first.get(0).nextRunAt());
        List<DrainedJob> second = tester.drain("kit-invoicing");
        assertEquals(List.of(new DrainedJob(id, Outcome.DONE, 2, null, null)), second, "a DONE job has no error");
    }

    @Test
    void a_consumers_backoff_holds_on_the_test_clock_and_a_clock_step_ends_it() {
        clock.advance(Duration.ofDays(3)); // a test clock well ahead of the database's
        JobId id = jobs.put("kit-payments", new Order("P-1", 30));
        Instant before = clock.now();

        List<DrainedJob> first = tester.drain("kit-payments");
        assertEquals(1, first.size(), first::toString);
        assertEquals(Outcome.RETRIED, first.get(0).outcome(), "the drain returns, and the job waits for the backoff");
        assertEquals(0, first.get(0).attempts(), "its attempt not counted");
        Instant end = first.get(0).nextRunAt();
        assertTrue(!end.isBefore(before.plus(Duration.ofMinutes(5))) && !end.isAfter(clock.now().plus(
                Duration.ofMinutes(5))), "the backoff ends 5 minutes after it began, on the test clock: " + end);
        assertEquals(List.of(), tester.drain("kit-payments"), "the backoff holds");

        clock.advance(Duration.ofMinutes(5));
        assertEquals(List.of(new DrainedJob(id, Outcome.DONE, 1, null, null)), tester.drain("kit-payments"));
    }

    @Test
    void a_job_that_is_due_does_not_run_until_the_test_drains_its_queue() throws InterruptedException {
        JobId id = jobs.put("kit-shipping", new Order("C-3", 1));

        // Longer than a poll interval (1 s) and than a start at put takes: the only way to show nothing ran.
        Thread.sleep(1_500);
        assertEquals(List.of("PENDING"), tester.enqueued("kit-shipping").stream().map(PutJob::state).toList());

        assertEquals(List.of(new DrainedJob(id, Outcome.DONE, 1, null, null)), tester.drain("kit-shipping"));
    }

    @Test
    void a_put_is_seen_with_its_payload_and_options_and_runs_only_when_drained() {
        JobId id = jobs.put("kit-shipping", new Order("B-2", 7),
                JobOptions.defaults().priority(5).key("ship-B-2").delay(Duration.ofHours(1)));

        List<PutJob> put = tester.enqueued("kit-shipping");
        assertEquals(1, put.size(), put::toString);
        PutJob job = put.get(0);
        assertEquals(id, job.id());
        assertEquals("PENDING", job.state(), "nothing runs it until the test drains the queue");
        assertEquals(new Order("B-2", 7), job.payload(Order.class));
        assertEquals(5, job.priority());
        assertEquals("ship-B-2", job.key());
        assertNull(job.group());
        assertTrue(job.runAt().isAfter(clock.now().plus(Duration.ofMinutes(59))), job.runAt().toString());

        assertEquals(List.of(), tester.drain("kit-shipping"), "a delayed job is not due");
        clock.advance(Duration.ofHours(1));
        assertEquals(List.of(new DrainedJob(id, Outcome.DONE, 1, null, null)), tester.drain("kit-shipping"));
        assertEquals(List.of(), tester.enqueued("kit-shipping"));
    }
}
