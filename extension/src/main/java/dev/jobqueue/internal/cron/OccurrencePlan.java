package dev.jobqueue.internal.cron;

import dev.jobqueue.MissedOccurrences;
import dev.jobqueue.OverlapPolicy;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * What one round does with a schedule whose next occurrence is due: which occurrences get a job, which are
 * skipped as missed or as overlapping, and when the schedule fires next.
 *
 * @param toPut      the occurrences to put a job for, oldest first
 * @param missed     occurrences skipped because they were missed
 * @param overlapped occurrences skipped because the previous occurrence had not finished
 * @param nextFire   the first occurrence after now
 */
public record OccurrencePlan(List<ZonedDateTime> toPut, List<ZonedDateTime> missed, List<ZonedDateTime> overlapped,
        ZonedDateTime nextFire) {

    /** After a long outage of a schedule that fires often, only this many due occurrences are looked at. */
    static final int MOST_OCCURRENCES_LOOKED_AT = 10_000;

    /**
     * @param nextFireAt         the schedule's next occurrence as stored
     * @param previousUnfinished whether the job of the schedule's previous occurrence is still unfinished
     */
    public static OccurrencePlan at(Instant now, CronSchedule cron, Instant nextFireAt, SchedulePolicy policy,
            boolean previousUnfinished) {
        List<ZonedDateTime> late = new ArrayList<>();
        List<ZonedDateTime> onTime = new ArrayList<>();
        ZonedDateTime occurrence = nextFireAt.atZone(cron.zone());
        Instant missedBefore = now.minus(policy.missedAfter());
        int lookedAt = 0;
        while (!occurrence.toInstant().isAfter(now) && lookedAt++ < MOST_OCCURRENCES_LOOKED_AT) {
            (occurrence.toInstant().isBefore(missedBefore) ? late : onTime).add(occurrence);
            occurrence = cron.nextAfter(occurrence.toInstant());
        }
        ZonedDateTime nextFire = occurrence.toInstant().isAfter(now) ? occurrence : cron.nextAfter(now);

        int caughtUp = switch (policy.missed()) {
            case SKIP -> 0;
            case ONCE -> onTime.isEmpty() ? Math.min(1, late.size()) : 0;
            case ALL -> Math.min(policy.catchUpLimit(), late.size());
        };
        List<ZonedDateTime> missed = new ArrayList<>(late.subList(0, late.size() - caughtUp));
        List<ZonedDateTime> toPut = new ArrayList<>(late.subList(late.size() - caughtUp, late.size()));
        toPut.addAll(onTime);

        List<ZonedDateTime> overlapped = new ArrayList<>();
        if (policy.overlap() == OverlapPolicy.SKIP && !toPut.isEmpty()) {
            int kept = previousUnfinished ? 0 : 1;
            overlapped.addAll(toPut.subList(0, toPut.size() - kept));
            toPut = new ArrayList<>(toPut.subList(toPut.size() - kept, toPut.size()));
        }
        return new OccurrencePlan(List.copyOf(toPut), List.copyOf(missed), List.copyOf(overlapped), nextFire);
    }
}
