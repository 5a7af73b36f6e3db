package dev.jobqueue;

import java.time.ZonedDateTime;

/**
 * A recurring schedule as the admin API shows it.
 *
 * @param name            the schedule's name
 * @param queue           the queue its jobs go to
 * @param cron            its cron expression
 * @param zone            the zone the expression is read in
 * @param declared        true if {@link Recurring} declares it, false if {@link JobSchedules} made it
 * @param enabled         false once no running node has declared it for a while, or config turned it off; it
 *                        then fires no more until it is declared again or deleted
 * @param declarationGone true if it was turned off because no running node has declared it for
 *                        {@code jobqueue.undeclared-schedule-grace} (logged as JQ061)
 * @param paused          whether an operator paused it
 * @param nextFire        its next occurrence, in its zone
 * @param lastFire        when it last put a job, or null
 * @param lastJob         that job, or null
 * @param lastJobState    that job's state (PENDING, RUNNING, WAITING, DONE or FAILED), or null if it has been
 *                        deleted
 * @param missed          its missed-occurrence policy
 * @param overlap         its overlap policy
 */
public record ScheduleInfo(String name, String queue, String cron, String zone, boolean declared, boolean enabled,
        boolean declarationGone, boolean paused, ZonedDateTime nextFire, ZonedDateTime lastFire, JobId lastJob,
        String lastJobState, MissedOccurrences missed, OverlapPolicy overlap) {
}
