package dev.jobqueue.internal.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.LeaseRescued;
import dev.jobqueue.internal.fixtures.FakeLeaseStore;
import dev.jobqueue.internal.fixtures.FixedNodeName;
import dev.jobqueue.internal.fixtures.LogCapture;
import dev.jobqueue.internal.fixtures.ManualExecutor;
import dev.jobqueue.internal.fixtures.SettableClock;
import dev.jobqueue.internal.store.HeldLease;
import dev.jobqueue.internal.store.LeaseStore.UnrenewedLeases;
import dev.jobqueue.internal.time.LeaseClocks;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A restarted node's take-back of the leases recorded under its name, on a scheduler the test runs by hand: it
 * waits two renewal rounds of any node before it takes anything back, takes back what the store found unmoved,
 * names the shared node name when some leases were renewed meanwhile, and tries again, until the lease expires,
 * what another transaction held locked or a database that did not answer kept it from. No thread, no sleep.
 */
class EarlierLeasesTest {

    private static final Instant T0 = Instant.parse("2026-03-01T09:00:00Z");
    private static final String QUEUE = "reports";
    private static final HeldLease DEAD = new HeldLease("0190a0b0-0000-7000-8000-000000000008", QUEUE, 1, "lease-8",
            T0.plusSeconds(300));
    private static final HeldLease LIVE = new HeldLease("0190a0b0-0000-7000-8000-000000000009", QUEUE, 3, "lease-9",
            T0.plusSeconds(290));

    private final SettableClock clock = new SettableClock(T0);
    private final ManualExecutor scheduler = new ManualExecutor();
    private final FakeLeaseStore store = new FakeLeaseStore();
    private final RecordedRescues rescued = new RecordedRescues();
    private final EarlierLeases earlier = new EarlierLeases();

    EarlierLeasesTest() {
        earlier.node = new FixedNodeName("node-1");
        earlier.store = store;
        earlier.leaseClock = LeaseClocks.following(clock);
        earlier.rescues = rescued.rescues;
        earlier.scheduler = scheduler;
    }

    @Test
    void a_restarted_node_waits_two_renewal_rounds_and_then_takes_back_the_leases_it_noted_that_did_not_move() {
        store.held = List.of(DEAD, LIVE);
        store.unrenewed = new UnrenewedLeases(List.of(DEAD.rescued()), 0, List.of());

        earlier.start();

        assertEquals(List.of(10_000L), scheduler.delaysMillis, "two rounds of the longest renewal period");
        assertEquals(List.of(), store.takenBack, "nothing is taken back before the wait");

        scheduler.runQueued();

        assertEquals(List.of(List.of(DEAD, LIVE)), store.takenBack, "the leases as noted at start-up");
        LeaseRescued event = rescued.events.fired.get(0);
        assertEquals(1, rescued.events.fired.size());
        assertEquals(1, event.attempt());
        assertTrue(event.error().contains("node-1"), event.error());
        assertEquals(List.of(QUEUE), rescued.woken);
    }

    @Test
    void leases_renewed_during_the_wait_mean_another_live_process_shares_the_name_which_is_logged_as_jq090() {
        store.held = List.of(DEAD, LIVE);
        store.unrenewed = new UnrenewedLeases(List.of(DEAD.rescued()), 1, List.of());

        try (LogCapture log = new LogCapture(EarlierLeases.class.getName())) {
            earlier.start();
            scheduler.runQueued();

            String warning = log.messages().stream().filter(message -> message.startsWith("JQ090")).findFirst()
                    .orElseThrow(() -> new AssertionError("no JQ090 in " + log.messages()));
            assertTrue(warning.contains("'node-1'") && warning.contains("jobqueue.node-name"), warning);
        }
        assertEquals(1, rescued.events.fired.size(), "the lease that did not move is still taken back");
    }

    @Test
    void a_node_with_no_leases_under_its_name_waits_for_nothing() {
        try (LogCapture log = new LogCapture(EarlierLeases.class.getName())) {
            earlier.start();

            assertEquals(List.of(), scheduler.delaysMillis);
            assertEquals(List.of(), log.messages());
        }
    }

    @Test
    void a_lease_whose_row_another_transaction_held_is_tried_again_a_second_later_until_it_is_taken_back() {
        store.held = List.of(DEAD, LIVE);
        store.unrenewed = new UnrenewedLeases(List.of(), 0, List.of(DEAD));

        earlier.start();
        scheduler.runScheduled();

        assertEquals(List.of(10_000L, 1_000L), scheduler.delaysMillis, "the locked lease again one second later");
        assertEquals(List.of(), rescued.events.fired, "nothing taken back while the row was held");

        store.unrenewed = new UnrenewedLeases(List.of(DEAD.rescued()), 0, List.of());
        scheduler.runScheduled();

        assertEquals(List.of(List.of(DEAD, LIVE), List.of(DEAD)), store.takenBack, "only the held lease again");
        assertEquals(1, rescued.events.fired.size(), "taken back on the second try");
        assertEquals(List.of(10_000L, 1_000L), scheduler.delaysMillis, "nothing left to try");
    }

    @Test
    void a_take_back_the_database_refused_is_tried_again_logged_once_and_given_up_when_the_leases_expire() {
        store.held = List.of(DEAD);
        store.takeBackFailure = new IllegalStateException("connection refused");

        try (LogCapture log = new LogCapture(EarlierLeases.class.getName())) {
            earlier.start();
            scheduler.runScheduled();
            scheduler.runScheduled();
            clock.advance(java.time.Duration.ofSeconds(300));
            scheduler.runScheduled();

            assertEquals(3, store.takenBack.size(), "tried at the end of the watch and twice more");
            assertEquals(1, log.messages().size(), "the outage logged once: " + log.messages());
            assertTrue(log.messages().get(0).contains("connection refused"), log.messages().get(0));
        }
        assertEquals(List.of(10_000L, 1_000L, 1_000L), scheduler.delaysMillis,
                "no try after the lease expired: the expired-lease watch takes it back");
        assertEquals(List.of(), scheduler.tasks);
    }

    @Test
    void a_stopped_node_schedules_no_further_try() {
        store.held = List.of(DEAD);
        store.unrenewed = new UnrenewedLeases(List.of(), 0, List.of(DEAD));

        earlier.start();
        earlier.stop();
        scheduler.runScheduled();

        assertEquals(List.of(10_000L), scheduler.delaysMillis);
    }
}
