package dev.jobqueue.internal.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.internal.fixtures.FakeLeaseStore;
import dev.jobqueue.internal.fixtures.SettableClock;
import dev.jobqueue.internal.store.ClaimedJob;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class UnsettledLeasesTest {

    private static final Instant T0 = Instant.parse("2026-12-03T10:00:00Z");
    private static final Duration LEASE = Duration.ofSeconds(60);

    private final SettableClock clock = new SettableClock(T0);
    private final FakeLeaseStore store = new FakeLeaseStore();
    private final UnsettledLeases unsettled = new UnsettledLeases(store, clock);

    @Test
    void a_claim_that_lost_its_connection_is_handed_back_whole_by_its_lease_token_once() {
        store.jobsOfClaim.put("claim-1", 3);
        unsettled.claimLost("reports", "claim-1", LEASE);

        assertEquals(Set.of("reports"), unsettled.settle());
        assertEquals(Set.of(), unsettled.settle(), "settled once");
        assertEquals(List.of("claim-1"), store.releasedClaims);
    }

    @Test
    void a_lost_claim_that_had_taken_nothing_names_no_queue_and_is_settled() {
        unsettled.claimLost("reports", "claim-1", LEASE);

        assertEquals(Set.of(), unsettled.settle());
        unsettled.settle();
        assertEquals(List.of("claim-1"), store.releasedClaims, "asked once, then forgotten");
    }

    @Test
    void while_the_database_does_not_answer_the_lease_waits_for_the_next_round() {
        store.jobsOfClaim.put("claim-1", 2);
        unsettled.claimLost("reports", "claim-1", LEASE);
        store.releaseFailure = new IllegalStateException("connection refused");

        assertThrows(IllegalStateException.class, unsettled::settle);

        store.releaseFailure = null;
        assertEquals(Set.of("reports"), unsettled.settle());
    }

    @Test
    void once_the_lease_has_expired_it_is_left_to_lease_rescue() {
        unsettled.claimLost("reports", "claim-1", LEASE);
        clock.advance(LEASE.plusSeconds(1));

        assertEquals(Set.of(), unsettled.settle());
        assertTrue(store.releasedClaims.isEmpty(), "no hand-back after the lease: another node may hold the job");
    }

    @Test
    void a_job_that_could_not_be_handed_back_is_released_by_its_id_and_lease_token() {
        ClaimedJob job = new ClaimedJob("job-1", "reports", "{}", 1, T0, T0, "lease-1", null, null, 0, null);
        unsettled.handBackFailed(job, LEASE);

        assertEquals(Set.of("reports"), unsettled.settle());
        assertEquals(List.of(job), store.released);
    }
}
