package dev.jobqueue.internal.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.LeaseRescued;
import dev.jobqueue.internal.config.QueueOptions;
import dev.jobqueue.internal.dispatch.Dispatcher;
import dev.jobqueue.internal.dispatch.RunningJobs;
import dev.jobqueue.internal.dispatch.UnsettledLeases;
import dev.jobqueue.internal.fixtures.FakeLeaseStore;
import dev.jobqueue.internal.fixtures.ManualExecutor;
import dev.jobqueue.internal.fixtures.SettableClock;
import dev.jobqueue.internal.fixtures.TestOptions;
import dev.jobqueue.internal.store.ClaimedJob;
import dev.jobqueue.internal.store.DatabaseReachability;
import dev.jobqueue.internal.store.DatabaseTime;
import dev.jobqueue.internal.store.LeaseStore.ExpiredLeases;
import dev.jobqueue.internal.store.LeasedJob;
import dev.jobqueue.internal.store.RescuedJob;
import dev.jobqueue.internal.time.LeaseClocks;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The lease keeper's rounds, on a scheduler the test runs by hand and a database clock the test sets: leases
 * are renewed on the database's clock whatever this node's clock says, a locked row is renewed once it is free,
 * expired leases are handed back with an event and a wake-up, and a round the database did not answer still
 * counts as a round. No thread, no sleep.
 */
class LeaseKeeperTest {

    private static final Instant T0 = Instant.parse("2026-03-01T09:00:00Z");
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final String QUEUE = "reports";

    private final SettableClock nodeClock = new SettableClock(T0);
    private final ManualExecutor scheduler = new ManualExecutor();
    private final ManualExecutor executor = new ManualExecutor();
    private final FakeLeaseStore store = new FakeLeaseStore();
    private final RunningJobs running = new RunningJobs();
    private final RecordedRescues rescued = new RecordedRescues();
    private volatile Instant databaseNow = T0;
    private volatile boolean databaseDown;
    private final LeaseKeeper keeper = new LeaseKeeper();
    private final UnsettledLeases unsettled = new UnsettledLeases(store, nodeClock);
    private final List<String> rewound = new ArrayList<>();

    LeaseKeeperTest() {
        keeper.clock = nodeClock;
        keeper.leaseClock = LeaseClocks.following(nodeClock);
        keeper.databaseTime = new DatabaseTime() {
            @Override
            public Instant now() {
                if (databaseDown) {
                    throw new IllegalStateException("connection refused");
                }
                return databaseNow;
            }
        };
        keeper.scheduler = scheduler;
        keeper.executor = executor;
        keeper.store = store;
        keeper.running = running;
        keeper.rescues = rescued.rescues;
        keeper.unsettled = unsettled;
        keeper.dispatcher = new Dispatcher() {
            @Override
            public void rewind(String queue) {
                rewound.add(queue);
            }
        };
        keeper.database = new DatabaseReachability() {
            @Override
            public boolean reachable() {
                return !databaseDown;
            }
        };
        QueueOptions options = TestOptions.queue(QUEUE).lease(LEASE).build();
        keeper.start(queue -> options, LEASE);
    }

    private ClaimedJob runningAttempt(String id) {
        ClaimedJob job = new ClaimedJob(id, QUEUE, "{}", 1, T0, T0, "lease-" + id, null, null, 0, null);
        running.claimed(job, T0.plus(LEASE));
        store.running.add(LeasedJob.of(job));
        return job;
    }

    private Instant leaseOf(ClaimedJob job) {
        return running.snapshot().stream().filter(entry -> entry.job().equals(job)).findFirst().orElseThrow()
                .leaseExpiresAt();
    }

    private static void assertAbout(Instant expected, Instant actual) {
        assertTrue(!actual.isBefore(expected) && actual.isBefore(expected.plusSeconds(1)),
                "expected about " + expected + " but was " + actual);
    }

    @Test
    void a_round_renews_running_attempts_to_one_lease_from_the_database_clock_even_when_this_node_jumped() {
        ClaimedJob job = runningAttempt("job-1");
        nodeClock.advance(Duration.ofHours(1));
        databaseNow = T0.plusSeconds(10);

        scheduler.tick();

        assertEquals(List.of("lease-job-1"), store.renewals.get(0).leaseTokens());
        assertAbout(databaseNow.plus(LEASE), store.renewals.get(0).until());
        assertAbout(databaseNow.plus(LEASE), leaseOf(job));
    }

    @Test
    void a_round_hands_back_the_jobs_of_a_claim_that_lost_its_connection_and_claims_their_queue_from_the_start() {
        unsettled.claimLost(QUEUE, "lost-claim", LEASE);
        store.jobsOfClaim.put("lost-claim", 3);

        scheduler.tick();

        assertEquals(List.of("lost-claim"), store.releasedClaims);
        assertEquals(List.of(QUEUE), rewound, "the queue is claimed again from its first due job");
    }

    @Test
    void an_attempt_whose_row_is_locked_is_renewed_on_a_task_of_its_own_once_the_row_is_free() {
        ClaimedJob job = runningAttempt("job-1");
        store.locked.add(LeasedJob.of(job));
        databaseNow = T0.plusSeconds(20);

        scheduler.tick();
        scheduler.tick();
        assertEquals(1, executor.tasks.size(), "one waiting task per attempt, however many rounds pass");

        executor.runQueued();
        assertEquals(List.of(LeasedJob.of(job)), store.renewedOnceUnlocked);
        assertAbout(databaseNow.plus(LEASE), leaseOf(job));
    }

    @Test
    void expired_leases_taken_back_fire_an_event_and_wake_their_queue_and_the_next_round_gets_what_this_one_saw() {
        Instant expiredAt = T0.minusSeconds(5);
        Map<String, Instant> seenOnce = Map.of("job-9", T0.minusSeconds(1));
        store.expired = new ExpiredLeases(List.of(new RescuedJob("0190a0b0-0000-7000-8000-000000000007", QUEUE, 2,
                expiredAt)), seenOnce);

        scheduler.tick();
        scheduler.tick();

        assertEquals(List.of(Map.of(), seenOnce), store.seenBefore, "a lease is taken back on its second sighting");
        LeaseRescued event = rescued.events.fired.get(0);
        assertEquals(2, event.attempt());
        assertEquals(expiredAt, event.leaseExpiredAt());
        assertTrue(event.error().contains("expired"), event.error());
        assertEquals(QUEUE, rescued.woken.get(0));
    }

    @Test
    void a_round_the_database_does_not_answer_still_counts_as_a_round_so_the_node_stays_live() {
        runningAttempt("job-1");
        databaseDown = true;
        nodeClock.advance(Duration.ofSeconds(7));

        scheduler.tick();

        assertEquals(List.of(), store.renewals);
        assertNotNull(keeper.lastRound());
        assertEquals(T0.plusSeconds(7), keeper.lastRound());
    }
}
