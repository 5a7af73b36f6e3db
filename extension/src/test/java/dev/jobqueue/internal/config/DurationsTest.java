package dev.jobqueue.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
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

    @Test
    void up_to_one_hundred_years_is_accepted() {
        assertEquals(Duration.ofDays(36_500), Durations.parse("36500d"));
        assertEquals(Duration.ofDays(36_500), Durations.parse("P36500D"));
    }

    @Test
    void a_duration_too_long_for_the_arithmetic_is_refused_as_too_long_not_as_an_overflow() {
        List<String> tooLong = List.of("36501d", "PT9999999999999H", "10000000000000d", "200000000000000d",
                "99999999999999999999ms", "P999999999999999D", "PT99999999999999999999H");
        for (String text : tooLong) {
            IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> Durations.parse(text),
                    text);
            assertEquals("a duration must be at most 36500d (about 100 years)", error.getMessage(), text);
        }
    }
}
