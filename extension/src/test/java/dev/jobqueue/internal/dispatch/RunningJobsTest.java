package dev.jobqueue.internal.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.internal.store.ClaimedJob;
import dev.jobqueue.internal.store.LeasedJob;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunningJobsTest {

    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");

    private static ClaimedJob attempt(int attempt, String leaseToken) {
        return new ClaimedJob("job-1", "reports", "{}", attempt, T0, T0, leaseToken, null, null, 0, null);
    }

    @Test
    void the_end_of_a_first_attempt_that_lost_its_lease_leaves_the_second_attempt_held_and_renewed() {
        RunningJobs running = new RunningJobs();
        ClaimedJob first = attempt(1, "lease-1");
        ClaimedJob second = attempt(2, "lease-2");
        running.claimed(first, T0.plusSeconds(60));
        running.started(first, T0);
        // The first attempt's lease lapsed; this node claimed the job again while the first attempt still ran.
        running.claimed(second, T0.plusSeconds(120));
        running.started(second, T0.plusSeconds(61));

        running.finished(first);

        assertTrue(running.holds(LeasedJob.of(second)), "the second attempt is still held");
        assertFalse(running.holds(LeasedJob.of(first)));
        assertEquals(List.of("lease-2"), running.snapshot().stream().map(entry -> entry.job().leaseToken()).toList(),
                "the lease keeper renews the second attempt's lease");
        running.renewed(List.of(LeasedJob.of(second)), T0.plusSeconds(180));
        assertEquals(T0.plusSeconds(180), running.leaseExpiresAt(second));
    }

    @Test
    void a_renewal_of_an_attempt_that_has_ended_does_not_bring_it_back() {
        RunningJobs running = new RunningJobs();
        ClaimedJob job = attempt(1, "lease-1");
        running.claimed(job, T0.plusSeconds(60));
        running.finished(job);

        running.renewed(List.of(LeasedJob.of(job)), T0.plusSeconds(120));

        assertTrue(running.isEmpty());
        assertNull(running.leaseExpiresAt(job));
    }
}
