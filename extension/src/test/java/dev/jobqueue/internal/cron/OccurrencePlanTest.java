package dev.jobqueue.internal.cron;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jobqueue.MissedOccurrences;
import dev.jobqueue.OverlapPolicy;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The missed-occurrence and overlap policies, after a simulated downtime of an hourly schedule. */
class OccurrencePlanTest {

    private static final CronSchedule HOURLY = CronSchedule.parse("0 * * * *", "UTC");
    /** The schedule's last run put 06:00; nothing ran from then until 10:05. */
    private static final Instant NEXT_FIRE = Instant.parse("2026-05-04T07:00:00Z");
    private static final Instant AFTER_DOWNTIME = Instant.parse("2026-05-04T10:05:00Z");

    private static SchedulePolicy policy(MissedOccurrences missed, int catchUpLimit, OverlapPolicy overlap) {
        return new SchedulePolicy(missed, Duration.ofMinutes(1), catchUpLimit, overlap);
    }

    private static List<String> hours(List<ZonedDateTime> times) {
        return times.stream().map(time -> String.format("%02d", time.getHour())).toList();
    }

    @Test
    void an_occurrence_found_within_missed_after_is_on_time_and_put() {
        OccurrencePlan plan = OccurrencePlan.at(Instant.parse("2026-05-04T07:00:00.800Z"), HOURLY, NEXT_FIRE,
                SchedulePolicy.DEFAULT, false);

        assertEquals(List.of("07"), hours(plan.toPut()));
        assertEquals(List.of(), plan.missed());
        assertEquals(Instant.parse("2026-05-04T08:00:00Z"), plan.nextFire().toInstant());
    }

    @Test
    void once_puts_one_job_for_the_latest_missed_occurrence() {
        OccurrencePlan plan = OccurrencePlan.at(AFTER_DOWNTIME, HOURLY, NEXT_FIRE,
                policy(MissedOccurrences.ONCE, 100, OverlapPolicy.ALLOW), false);

        assertEquals(List.of("10"), hours(plan.toPut()));
        assertEquals(List.of("07", "08", "09"), hours(plan.missed()));
        assertEquals(Instant.parse("2026-05-04T11:00:00Z"), plan.nextFire().toInstant());
    }

    @Test
    void once_puts_nothing_extra_when_an_occurrence_on_time_runs_anyway() {
        OccurrencePlan plan = OccurrencePlan.at(Instant.parse("2026-05-04T10:00:20Z"), HOURLY, NEXT_FIRE,
                policy(MissedOccurrences.ONCE, 100, OverlapPolicy.ALLOW), false);

        assertEquals(List.of("10"), hours(plan.toPut()));
        assertEquals(List.of("07", "08", "09"), hours(plan.missed()));
    }

    @Test
    void skip_puts_none_of_the_missed_occurrences() {
        OccurrencePlan plan = OccurrencePlan.at(AFTER_DOWNTIME, HOURLY, NEXT_FIRE,
                policy(MissedOccurrences.SKIP, 100, OverlapPolicy.ALLOW), false);

        assertEquals(List.of(), plan.toPut());
        assertEquals(List.of("07", "08", "09", "10"), hours(plan.missed()));
        assertEquals(Instant.parse("2026-05-04T11:00:00Z"), plan.nextFire().toInstant());
    }

    @Test
    void all_puts_each_missed_occurrence_oldest_first_up_to_the_catch_up_limit() {
        assertEquals(List.of("07", "08", "09", "10"), hours(OccurrencePlan.at(AFTER_DOWNTIME, HOURLY, NEXT_FIRE,
                policy(MissedOccurrences.ALL, 100, OverlapPolicy.ALLOW), false).toPut()));

        OccurrencePlan capped = OccurrencePlan.at(AFTER_DOWNTIME, HOURLY, NEXT_FIRE,
                policy(MissedOccurrences.ALL, 2, OverlapPolicy.ALLOW), false);
        assertEquals(List.of("09", "10"), hours(capped.toPut()), "the latest ones");
        assertEquals(List.of("07", "08"), hours(capped.missed()));
    }

    @Test
    void with_overlap_skip_an_occurrence_due_while_the_previous_is_unfinished_is_skipped() {
        OccurrencePlan plan = OccurrencePlan.at(Instant.parse("2026-05-04T07:00:01Z"), HOURLY, NEXT_FIRE,
                policy(MissedOccurrences.ONCE, 100, OverlapPolicy.SKIP), true);

        assertEquals(List.of(), plan.toPut());
        assertEquals(List.of("07"), hours(plan.overlapped()));
        assertEquals(Instant.parse("2026-05-04T08:00:00Z"), plan.nextFire().toInstant(), "the schedule goes on");
    }

    @Test
    void with_overlap_skip_a_catch_up_puts_one_occurrence_and_with_allow_it_puts_them_all() {
        OccurrencePlan skip = OccurrencePlan.at(AFTER_DOWNTIME, HOURLY, NEXT_FIRE,
                policy(MissedOccurrences.ALL, 100, OverlapPolicy.SKIP), false);
        assertEquals(List.of("10"), hours(skip.toPut()));
        assertEquals(List.of("07", "08", "09"), hours(skip.overlapped()));

        OccurrencePlan allow = OccurrencePlan.at(AFTER_DOWNTIME, HOURLY, NEXT_FIRE,
                policy(MissedOccurrences.ALL, 100, OverlapPolicy.ALLOW), true);
        assertEquals(List.of("07", "08", "09", "10"), hours(allow.toPut()), "an unfinished previous one does not matter");
    }

    @Test
    void a_downtime_longer_than_the_occurrences_looked_at_still_moves_the_schedule_past_now() {
        CronSchedule everySecond = CronSchedule.parse("* * * * * *", "UTC");
        Instant now = NEXT_FIRE.plus(Duration.ofDays(1));

        OccurrencePlan plan = OccurrencePlan.at(now, everySecond, NEXT_FIRE, SchedulePolicy.DEFAULT, false);

        assertEquals(List.of(), plan.toPut().stream().filter(time -> !time.toInstant().isBefore(now)).toList());
        assertEquals(1, plan.toPut().size());
        assertEquals(OccurrencePlan.MOST_OCCURRENCES_LOOKED_AT - 1, plan.missed().size());
        assertEquals(now.plusSeconds(1), plan.nextFire().toInstant());
    }
}
