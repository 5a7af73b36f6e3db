package dev.jobqueue.internal.cron;

import dev.jobqueue.MissedOccurrences;
import dev.jobqueue.OverlapPolicy;
import java.time.Duration;

/**
 * How a schedule treats occurrences found late, and occurrences due while the previous one is unfinished.
 *
 * @param missed       what to do with missed occurrences
 * @param missedAfter  how late an occurrence may be found before it counts as missed
 * @param catchUpLimit for {@link MissedOccurrences#ALL}, the most missed occurrences put at once
 * @param overlap      whether an occurrence is put while the previous one is unfinished
 */
public record SchedulePolicy(MissedOccurrences missed, Duration missedAfter, int catchUpLimit, OverlapPolicy overlap) {

    public static final SchedulePolicy DEFAULT = new SchedulePolicy(MissedOccurrences.ONCE, Duration.ofMinutes(1), 100,
            OverlapPolicy.SKIP);
}
