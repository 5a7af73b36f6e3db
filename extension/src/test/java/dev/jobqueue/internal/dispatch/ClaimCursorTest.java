package dev.jobqueue.internal.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.jobqueue.internal.store.ClaimStart;
import dev.jobqueue.internal.store.ClaimedJob;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ClaimCursorTest {

    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");

    private final AtomicLong nanos = new AtomicLong(1_000);
    private final ClaimCursor cursor = ClaimCursor.measuring(nanos::get);

    private static ClaimedJob job(int priority, Instant dueAt) {
        return new ClaimedJob("job-" + dueAt.toEpochMilli(), "reports", "{}", 1, dueAt, dueAt, "lease", null, null,
                priority, null);
    }

    private void elapse(long millis) {
        nanos.addAndGet(millis * 1_000_000);
    }

    @Test
    void a_claim_starts_at_the_priority_of_the_last_job_claimed_a_lag_before_its_due_time() {
        assertNull(cursor.start(), "the first claim reads from the first due job");
        cursor.claimed(List.of(job(5, T0), job(0, T0.plusSeconds(3)), job(0, T0.plusSeconds(4))));

        assertEquals(new ClaimStart(0, T0.plusSeconds(4).minus(ClaimCursor.LAG)), cursor.start());
        cursor.claimed(List.of());
        assertEquals(new ClaimStart(0, T0.plusSeconds(4).minus(ClaimCursor.LAG)), cursor.start(),
                "a claim that took nothing leaves the place");
    }

    @Test
    void once_a_second_and_after_a_rewind_a_claim_reads_from_the_first_due_job() {
        cursor.start();
        cursor.claimed(List.of(job(0, T0)));
        elapse(ClaimCursor.FULL_READ_EVERY.toMillis() - 1);
        assertEquals(0, cursor.start().priority());

        elapse(1);
        assertNull(cursor.start(), "a second after the last read from the first due job");
        assertEquals(0, cursor.start().priority(), "and then from the place again");

        cursor.rewind();
        assertNull(cursor.start(), "jobs due earlier may have become claimable");
        assertEquals(0, cursor.start().priority());
    }

    @Test
    void a_late_put_claimed_near_the_place_does_not_move_it_back() {
        cursor.start();
        cursor.claimed(List.of(job(0, T0.plusSeconds(10))));
        cursor.claimed(List.of(job(0, T0.plusSeconds(9).plusMillis(500))));

        assertEquals(T0.plusSeconds(9), cursor.start().dueFrom());
        cursor.claimed(List.of(job(3, T0)));
        assertEquals(new ClaimStart(3, T0.minus(ClaimCursor.LAG)), cursor.start(), "another priority moves it");
    }

    @Test
    void when_a_test_runs_the_queue_by_hand_every_claim_reads_from_the_first_due_job() {
        ClaimCursor byHand = ClaimCursor.alwaysFromFirst();
        byHand.start();
        byHand.claimed(List.of(job(0, T0)));

        assertNull(byHand.start());
    }
}
