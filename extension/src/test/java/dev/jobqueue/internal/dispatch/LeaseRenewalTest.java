package dev.jobqueue.internal.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class LeaseRenewalTest {

    @Test
    void a_lease_is_renewed_every_third_of_it_so_it_outlives_two_missed_rounds() {
        assertEquals(Duration.ofSeconds(1), LeaseRenewal.period(Duration.ofSeconds(3)));
        assertEquals(Duration.ofMillis(666), LeaseRenewal.period(Duration.ofSeconds(2)));
    }

    @Test
    void long_leases_are_still_renewed_every_five_seconds_and_short_ones_no_more_often_than_every_100_ms() {
        assertEquals(LeaseRenewal.MAX_PERIOD, LeaseRenewal.period(Duration.ofMinutes(5)));
        assertEquals(Duration.ofMillis(100), LeaseRenewal.period(Duration.ofMillis(150)));
    }
}
