package dev.jobqueue.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class BackoffTest {

    private final Backoff.Exponential noJitter =
            new Backoff.Exponential(Duration.ofSeconds(1), 2.0, Duration.ofMinutes(1), 0.0);

    @Test
    void exponential_backoff_doubles_from_the_initial_delay() {
        assertEquals(Duration.ofSeconds(1), noJitter.delayAfter(1, () -> 0.5));
        assertEquals(Duration.ofSeconds(2), noJitter.delayAfter(2, () -> 0.5));
        assertEquals(Duration.ofSeconds(4), noJitter.delayAfter(3, () -> 0.5));
        assertEquals(Duration.ofSeconds(32), noJitter.delayAfter(6, () -> 0.5));
    }

    @Test
    void exponential_backoff_stops_growing_at_the_maximum() {
        assertEquals(Duration.ofMinutes(1), noJitter.delayAfter(7, () -> 0.5));
        assertEquals(Duration.ofMinutes(1), noJitter.delayAfter(500, () -> 0.5));
    }

    @Test
    void jitter_spreads_the_delay_both_ways_by_the_given_fraction() {
        Backoff.Exponential jittered = new Backoff.Exponential(Duration.ofSeconds(10), 2.0, Duration.ofHours(1), 0.2);

        assertEquals(Duration.ofSeconds(8), jittered.delayAfter(1, () -> 0.0));
        assertEquals(Duration.ofSeconds(10), jittered.delayAfter(1, () -> 0.5));
        assertEquals(Duration.ofSeconds(11), jittered.delayAfter(1, () -> 0.75));
    }

    @Test
    void fixed_delays_are_used_in_order_and_the_last_one_repeats() {
        Backoff.Fixed fixed = new Backoff.Fixed(List.of(Duration.ofSeconds(1), Duration.ofSeconds(30)));

        assertEquals(Duration.ofSeconds(1), fixed.delayAfter(1, () -> 0.0));
        assertEquals(Duration.ofSeconds(30), fixed.delayAfter(2, () -> 0.0));
        assertEquals(Duration.ofSeconds(30), fixed.delayAfter(9, () -> 0.0));
    }

    @Test
    void a_multiplier_below_one_or_a_jitter_above_one_is_refused() {
        assertThrows(IllegalArgumentException.class,
                () -> new Backoff.Exponential(Duration.ofSeconds(1), 0.5, Duration.ofMinutes(1), 0.0));
        assertThrows(IllegalArgumentException.class,
                () -> new Backoff.Exponential(Duration.ofSeconds(1), 2.0, Duration.ofMinutes(1), 1.5));
    }
}
