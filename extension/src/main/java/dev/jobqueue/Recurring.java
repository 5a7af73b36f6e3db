package dev.jobqueue;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Puts a job on this consumer's queue at each time of a cron schedule, once per time across the cluster. The
 * consumer takes an {@link Occurrence}, which names the schedule and the time, and may take a {@link JobContext}:
 *
 * <pre>{@code
 * @Recurring(cron = "0 2 * * *", zone = "Europe/Berlin")
 * @Consumer(queue = "nightly-report")
 * public void report(Occurrence occurrence) { ... }
 * }</pre>
 *
 * <p>Each occurrence is an ordinary job: it is retried with backoff, shows in the admin API, and is FAILED when
 * its attempts run out. Any node may put it; the schedule's row decides which, so two nodes never both put one
 * occurrence. MicroProfile Config overrides every attribute with {@code jobqueue.schedule.<name>.<option>}. A bad
 * expression, an unknown zone or a bad value fails the deployment with a message naming the schedule.
 *
 * <p>When nodes of two versions run at once, as in a rolling upgrade, the declaration first made last among those
 * a running node holds defines the schedule: an older version's node that restarts changes nothing. A schedule
 * that no running node has declared for {@code jobqueue.undeclared-schedule-grace} (10 minutes) is turned off.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Recurring {

    /** {@code cron}: five fields (minute hour day-of-month month day-of-week) or six (seconds first). */
    String cron();

    /** {@code zone}: the time zone the expression is read in, such as {@code Europe/Berlin}. */
    String zone() default "UTC";

    /** The schedule's name, matching {@code [a-z0-9][a-z0-9._-]*}; the consumer's queue if empty. */
    String name() default "";

    /** {@code missed}: what to do with occurrences missed while no node ran or the database was down. */
    MissedOccurrences missed() default MissedOccurrences.ONCE;

    /** {@code missed-after}: how late an occurrence may be found before it counts as missed. */
    String missedAfter() default "1m";

    /** {@code catch-up-limit}: with {@link MissedOccurrences#ALL}, the most missed occurrences put at once. */
    int catchUpLimit() default 100;

    /** {@code overlap}: whether to put an occurrence while the previous one's job is unfinished. */
    OverlapPolicy overlap() default OverlapPolicy.SKIP;
}
