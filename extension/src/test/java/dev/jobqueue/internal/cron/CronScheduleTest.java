package dev.jobqueue.internal.cron;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Next-fire arithmetic in Europe/Berlin across both daylight-saving changes of 2026: clocks go forward from
 * 02:00 to 03:00 on 29 March and back from 03:00 to 02:00 on 25 October.
 */
class CronScheduleTest {

    private static final Instant BEFORE_SPRING = Instant.parse("2026-03-28T22:00:00Z");
    private static final Instant BEFORE_AUTUMN = Instant.parse("2026-10-24T22:00:00Z");

    private static List<String> fires(String cron, Instant from, int count) {
        CronSchedule schedule = CronSchedule.parse(cron, "Europe/Berlin");
        List<String> fires = new ArrayList<>();
        Instant after = from;
        for (int i = 0; i < count; i++) {
            ZonedDateTime next = schedule.nextAfter(after);
            fires.add(next.toOffsetDateTime().toString());
            after = next.toInstant();
        }
        return fires;
    }

    @Test
    void a_fixed_time_that_happens_twice_when_the_clocks_go_back_fires_once_at_the_first() {
        assertEquals(List.of("2026-10-25T02:30+02:00", "2026-10-26T02:30+01:00", "2026-10-27T02:30+01:00"),
                fires("30 2 * * *", BEFORE_AUTUMN, 3));
    }

    @Test
    void a_fixed_time_the_clocks_skip_fires_moved_forward_by_the_gap() {
        assertEquals(List.of("2026-03-29T03:30+02:00", "2026-03-30T02:30+02:00"), fires("30 2 * * *", BEFORE_SPRING, 2));
        assertEquals(List.of("2026-03-29T03:00+02:00", "2026-03-29T03:30+02:00", "2026-03-30T02:00+02:00"),
                fires("0,30 2 * * *", BEFORE_SPRING, 3), "each skipped time, in order");
    }

    @Test
    void a_skipped_time_moved_onto_a_time_the_schedule_fires_anyway_fires_once() {
        assertEquals(List.of("2026-03-29T03:00+02:00", "2026-03-30T02:00+02:00", "2026-03-30T03:00+02:00"),
                fires("0 2,3 * * *", BEFORE_SPRING, 3));
    }

    @Test
    void a_schedule_with_a_star_in_its_minute_or_hour_field_follows_the_clock() {
        assertEquals(List.of("2026-10-25T02:00+02:00", "2026-10-25T02:30+02:00", "2026-10-25T02:00+01:00",
                "2026-10-25T02:30+01:00", "2026-10-25T03:00+01:00"),
                fires("*/30 * * * *", Instant.parse("2026-10-24T23:59:00Z"), 5), "both passes of the repeated hour");
        assertEquals(List.of("2026-03-29T01:30+01:00", "2026-03-29T03:00+02:00"),
                fires("*/30 * * * *", Instant.parse("2026-03-29T00:00:00Z"), 2), "nothing in the skipped hour");
    }

    @Test
    void the_next_fire_is_strictly_after_the_given_instant_to_the_second() {
        CronSchedule everySecond = CronSchedule.parse("* * * * * *", "UTC");
        assertEquals(OffsetDateTime.parse("2026-01-01T10:00:01Z").toInstant(),
                everySecond.nextAfter(Instant.parse("2026-01-01T10:00:00.500Z")).toInstant());
        assertEquals(OffsetDateTime.parse("2026-01-01T10:00:01Z").toInstant(),
                everySecond.nextAfter(Instant.parse("2026-01-01T10:00:00Z")).toInstant());
    }

    @Test
    void an_expression_that_cannot_be_read_or_never_fires_and_an_unknown_zone_are_refused_with_the_reason() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CronSchedule.parse("0 2 * *", "UTC"))
                .getMessage().contains("has 4 fields"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CronSchedule.parse("61 2 * * *", "UTC"))
                .getMessage().startsWith("cron expression '61 2 * * *' cannot be read"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CronSchedule.parse("0 0 31 2 *", "UTC"))
                .getMessage().startsWith("cron expression '0 0 31 2 *' cannot be read"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CronSchedule.parse("0 2 * * *", "Mars/Base"))
                .getMessage().startsWith("unknown time zone 'Mars/Base'"));
    }
}
