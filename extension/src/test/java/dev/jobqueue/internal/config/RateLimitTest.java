package dev.jobqueue.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RateLimitTest {

    @Test
    void starts_per_period_are_read_in_the_duration_forms_and_written_back_in_the_short_one() {
        assertEquals(new RateLimit(50, Duration.ofSeconds(1)), RateLimit.parse("50/1s"));
        assertEquals(new RateLimit(1000, Duration.ofMinutes(1)), RateLimit.parse(" 1000 / 1m "));
        assertEquals(new RateLimit(5, Duration.ofSeconds(10)), RateLimit.parse("5/PT10S"));
        assertEquals("5/10s", RateLimit.parse("5/PT10S").toString());
        assertEquals("3/1500ms", RateLimit.parse("3/1500ms").toString());
    }

    @Test
    void a_limit_that_lets_nothing_start_or_cannot_be_read_is_refused_saying_what_is_expected() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RateLimit.parse("0/1s")).getMessage()
                .contains("at least 1"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RateLimit.parse("50/0s")).getMessage()
                .contains("at least 1ms"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RateLimit.parse("50 per second"))
                .getMessage().contains("50/1s"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RateLimit.parse("99999999999/1s"))
                .getMessage().contains("at most"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RateLimit.parse("5/soon")).getMessage()
                .contains("10s"));
    }
}
