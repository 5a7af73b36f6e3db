package dev.jobqueue.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationsTest {

    @Test
    void the_short_form_accepts_milliseconds_seconds_minutes_hours_and_days() {
        assertEquals(Duration.ofMillis(250), Durations.parse("250ms"));
        assertEquals(Duration.ofSeconds(10), Durations.parse("10s"));
        assertEquals(Duration.ofMinutes(5), Durations.parse(" 5m "));
        assertEquals(Duration.ofHours(2), Durations.parse("2h"));
        assertEquals(Duration.ofDays(7), Durations.parse("7d"));
    }

    @Test
    void iso_8601_is_accepted() {
        assertEquals(Duration.ofSeconds(90), Durations.parse("PT1M30S"));
    }

    @Test
    void negative_and_unreadable_durations_are_refused_with_the_accepted_forms_named() {
        assertThrows(IllegalArgumentException.class, () -> Durations.parse("PT-5S"));
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> Durations.parse("soon"));
        assertTrue(error.getMessage().contains("10s"), error.getMessage());
    }
}
