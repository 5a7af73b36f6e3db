package dev.jobqueue.it.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.JobAdmin;
import dev.jobqueue.JobAdmin.AttemptError;
import dev.jobqueue.JobId;
import dev.jobqueue.JobOptions;
import dev.jobqueue.JobQueue;
import dev.jobqueue.internal.store.LeaseStore;
import dev.jobqueue.internal.store.LeaseStore.ExpiredLeases;
import dev.jobqueue.internal.store.RescuedJob;
import dev.jobqueue.internal.time.LeaseClock;
import dev.jobqueue.it.Await;
import dev.jobqueue.it.Deployments;
import dev.jobqueue.it.app.PlacedOrder;
import dev.jobqueue.it.reliability.Attempts.Attempt;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.inject.Inject;
import jakarta.transaction.UserTransaction;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The guarantees under the faults a scenario test does not think of: a lease lost while the attempt still
 * runs, a consumer that swallows the error that doomed its transaction, a put that locks a running job's row
 * for longer than its lease, and a node clock that jumps.
 */
@ExtendWith(ArquillianExtension.class)
class ReliabilityIT {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @Deployment
    static WebArchive app() {
        return Deployments.war("reliability", "reliability", ReliabilityConsumers.class, Attempts.class,
                Attempt.class, JobRows.class, SteppedClock.class, PlacedOrder.class);
    }

    @Inject
    JobQueue jobs;

    @Inject
    JobAdmin admin;

    @Inject
    Attempts attempts;

    @EJB
    JobRows rows;

    @Inject
    LeaseStore store;

    @Inject
    LeaseClock leaseClock;

    @Inject
    SteppedClock clock;

    @Resource(lookup = "java:comp/UserTransaction")
    UserTransaction transaction;

    @Test
    void a_job_claimed_again_while_its_first_attempt_runs_keeps_the_second_attempts_lease_and_finishes()
            throws Exception {
        String payload = "relapse-" + UUID.randomUUID();
        JobId id = jobs.put("relapse", payload);
        assertTrue(Await.until(() -> attempts.started(payload), WAIT), "the first attempt started");

        // The first attempt's lease lapses (a pause, a blip) and the job is claimed again, here, while it runs.
        rows.rescueAsAnotherNode(id);
        assertTrue(Await.until(() -> attempts.of(payload).contains(new Attempt(2, false)), WAIT),
                "the second attempt started on this node");
        attempts.open(payload);
        assertTrue(Await.until(() -> attempts.of(payload).contains(new Attempt(1, true)), WAIT));

        // The second attempt runs 5 s, two and a half leases: only renewal keeps its lease.
        assertTrue(Await.until(() -> "DONE".equals(rows.state(id)), WAIT), "the job is DONE, not " + rows.state(id));
        assertEquals(2, rows.attempts(id), "the second attempt finished it: " + attempts.of(payload));
        assertFalse(attempts.of(payload).stream().anyMatch(attempt -> attempt.attempt() > 2),
                "no third attempt: " + attempts.of(payload));
    }

    @Test
    void a_claimed_job_whose_lease_ran_out_while_it_waited_for_a_runner_is_not_started() throws Exception {
        String gate = "gate-" + UUID.randomUUID();
        String waiting = "waiting-" + UUID.randomUUID();
        // One after the other: two jobs put in one transaction may start in either order (on WildFly, the claim
        // that the commit wakes can buffer the second before the first, started on the put, reaches the runner).
        jobs.put("buffered", gate);
        assertTrue(Await.until(() -> attempts.started(gate), WAIT), "the first job holds the only runner");
        JobId waitingId = jobs.put("buffered", waiting);
        assertTrue(Await.until(() -> "RUNNING".equals(rows.state(waitingId)), WAIT),
                "the second job is claimed and waits for the runner");

        // Meanwhile its lease expired (this node lost the database, say) and another node claimed it.
        JobId inAnHour = jobs.put("elsewhere", "lease-end", JobOptions.defaults().delay(Duration.ofHours(1)));
        rows.claimAsAnotherNode(waitingId, inAnHour);
        Thread.sleep(3_000); // longer than the 2 s lease this node holds
        attempts.open(gate);
        assertTrue(Await.until(() -> attempts.of(gate).contains(new Attempt(1, true)), WAIT));
        Thread.sleep(1_000);

        assertEquals(List.of(), attempts.of(waiting), "the job whose lease ran out did not start here");
        assertEquals("other-node", rows.leaseToken(waitingId), "the other node still holds it");
        rows.rescueAsAnotherNode(waitingId);
        assertTrue(Await.until(() -> attempts.of(waiting).contains(new Attempt(2, true)), WAIT),
                "it runs here once it is free: " + attempts.of(waiting));
    }

    @Test
    void a_consumer_that_swallows_the_error_that_doomed_its_transaction_fails_its_attempt_and_then_succeeds()
            throws Exception {
        String payload = "swallow-" + UUID.randomUUID();
        rows.saveOrder(payload + "-existing");
        JobId id = jobs.put("rollback-only", payload);

        // The lease is 60 s: without the check, the job would sit RUNNING until its lease expired.
        assertTrue(Await.until(() -> "DONE".equals(rows.state(id)), WAIT), "the job is DONE, not " + rows.state(id));
        assertEquals(2, rows.attempts(id), "the first attempt counted as failed");
        List<AttemptError> errors = admin.job(id).orElseThrow().errors();
        assertEquals(1, errors.size(), "one failed attempt: " + errors);
        assertTrue(errors.get(0).error().contains("JQ040") && errors.get(0).error().contains("rollback-only"),
                "the error says the transaction was marked rollback-only: " + errors.get(0).error());
        assertEquals(List.of(payload + "-attempt-2", payload + "-existing"), rows.orders(payload),
                "the first attempt's writes were rolled back, the second's committed");
    }

    /** Not on embedded H2: it has one node, whose lease keeper renews before it rescues. */
    @Test
    @Tag("shared-database")
    void a_put_that_waits_for_a_running_job_and_stays_open_past_its_lease_does_not_cost_it_its_lease()
            throws Exception {
        String payload = "long-" + UUID.randomUUID();
        JobId running = jobs.put("held", payload);
        assertTrue(Await.until(() -> attempts.started(payload), WAIT));

        String after = "after-" + UUID.randomUUID();
        transaction.begin();
        jobs.put("held", after, JobOptions.defaults().after(running));
        Thread.sleep(4_000); // the put locks the running job's row for twice its 2 s lease
        transaction.commit();
        // Another node's lease keeper looks at the worst moment, just as the put commits, and again a round
        // later; its rounds are shorter than this node's (a 2 s lease is renewed about every 0.7 s).
        ExpiredLeases first = store.takeBackExpiredLeases(leaseClock.now(), 500, Map.of());
        Thread.sleep(200);
        ExpiredLeases second = store.takeBackExpiredLeases(leaseClock.now(), 500, first.seen());

        assertEquals(List.of(), Stream.of(first, second).flatMap(round -> round.rescued().stream())
                .map(RescuedJob::id).filter(running.toString()::equals).toList(),
                "the running job's lease was renewed as soon as the put let go of its row");
        assertTrue(Await.until(() -> attempts.of(after).contains(new Attempt(1, true)), WAIT),
                "the job that waited for it ran");
        assertEquals(List.of(new Attempt(1, false), new Attempt(1, true)), attempts.of(payload),
                "the long job ran once");
        assertEquals(1, rows.attempts(running));
    }

    @Test
    void a_node_clock_that_jumps_ahead_does_not_take_back_another_nodes_jobs() throws Exception {
        // A job RUNNING on another node, whose lease ends in an hour.
        JobId elsewhere = jobs.put("elsewhere", "x", JobOptions.defaults().delay(Duration.ofHours(1)));
        rows.claimAsAnotherNode(elsewhere, elsewhere);
        try {
            clock.step(Duration.ofHours(2));
            Thread.sleep(2_000); // about three rounds of the lease keeper
        } finally {
            clock.reset();
        }
        assertEquals("RUNNING", rows.state(elsewhere), "the other node's job was not taken back");
        assertEquals("other-node", rows.leaseToken(elsewhere));
        rows.rescueAsAnotherNode(elsewhere);
    }
}
