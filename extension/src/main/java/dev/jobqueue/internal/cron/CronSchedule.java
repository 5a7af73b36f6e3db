package dev.jobqueue.internal.cron;

import jakarta.enterprise.concurrent.CronTrigger;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.List;
import java.util.Optional;

/**
 * A cron expression in a time zone: Jakarta Concurrency's {@link CronTrigger} for the arithmetic, with the
 * daylight-saving rules of cron(8) on top. A schedule at fixed times (no {@code *} in its minute or hour field)
 * fires once on the day the clocks go back, at the first of the two equal local times, and a time the clocks
 * skip in spring fires at the same local time moved forward by the gap (02:30 becomes 03:30), unless the
 * schedule fires then anyway. A schedule with {@code *} in its minute or hour field follows the clock: it fires
 * in both passes of a repeated hour and not at all in a skipped one.
 */
public final class CronSchedule {

    private final String expression;
    private final ZoneId zone;
    private final CronTrigger trigger;
    private final boolean followsClock;

    private CronSchedule(String expression, ZoneId zone, CronTrigger trigger, boolean followsClock) {
        this.expression = expression;
        this.zone = zone;
        this.trigger = trigger;
        this.followsClock = followsClock;
    }

    /**
     * @param expression five fields (minute, hour, day of month, month, day of week) or six (seconds first), as
     *                   {@link CronTrigger} reads them
     * @param zone       a region such as {@code Europe/Berlin}, or an offset such as {@code UTC}
     * @throws IllegalArgumentException naming the problem, if the expression cannot be read, never fires, or
     *                                  the zone is unknown
     */
    public static CronSchedule parse(String expression, String zone) {
        ZoneId zoneId;
        try {
            zoneId = ZoneId.of(zone.trim());
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("unknown time zone '" + zone + "'; use a region such as Europe/Berlin"
                    + " or UTC");
        }
        String cron = expression.trim().replaceAll("\\s+", " ");
        String[] fields = cron.split(" ");
        if (fields.length != 5 && fields.length != 6) {
            throw new IllegalArgumentException("cron expression '" + expression + "' has " + fields.length
                    + " fields; it needs 5 (minute hour day-of-month month day-of-week) or 6 (seconds first)");
        }
        int minute = fields.length == 6 ? 1 : 0;
        boolean followsClock = fields[minute].startsWith("*") || fields[minute + 1].startsWith("*");
        CronSchedule schedule;
        try {
            schedule = new CronSchedule(cron, zoneId, new CronTrigger(cron, zoneId), followsClock);
            schedule.nextAfter(Instant.parse("2000-01-01T00:00:00Z"));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("cron expression '" + expression + "' cannot be read: "
                    + (e.getMessage() == null ? e.toString() : e.getMessage()));
        }
        return schedule;
    }

    /** The expression, with single spaces between its fields. */
    public String expression() {
        return expression;
    }

    public ZoneId zone() {
        return zone;
    }

    /**
     * The first time this schedule fires strictly after {@code after}.
     *
     * @throws DateTimeException if it never fires again
     */
    public ZonedDateTime nextAfter(Instant after) {
        ZonedDateTime from = after.atZone(zone).truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
        ZonedDateTime next = trigger.getNextRunTime(null, from);
        if (followsClock) {
            return next;
        }
        while (isSecondPass(next)) {
            next = trigger.getNextRunTime(null, next.plusSeconds(1));
        }
        ZonedDateTime regular = next;
        return firstSkippedTimeMovedForward(after, regular).filter(moved -> moved.isBefore(regular)).orElse(regular);
    }

    /** Whether {@code time} is the second of two equal local times on the day the clocks go back. */
    private boolean isSecondPass(ZonedDateTime time) {
        List<ZoneOffset> offsets = zone.getRules().getValidOffsets(time.toLocalDateTime());
        return offsets.size() == 2 && time.getOffset().equals(offsets.get(1));
    }

    /**
     * The earliest fire time that a spring-forward gap swallowed, moved forward by the gap, if it lies after
     * {@code after} and before {@code until}. The gap may have begun before {@code after}: its moved times
     * lie after it.
     */
    private Optional<ZonedDateTime> firstSkippedTimeMovedForward(Instant after, ZonedDateTime until) {
        ZoneRules rules = zone.getRules();
        ZoneOffsetTransition transition = rules.previousTransition(after.plusNanos(1));
        if (transition == null || transition.getInstant().plus(transition.getDuration()).isBefore(after)) {
            transition = rules.nextTransition(after);
        }
        while (transition != null && transition.getInstant().isBefore(until.toInstant())) {
            if (transition.isGap()) {
                Optional<ZonedDateTime> moved = firstMovedTime(transition, after);
                if (moved.isPresent()) {
                    return moved;
                }
            }
            transition = rules.nextTransition(transition.getInstant());
        }
        return Optional.empty();
    }

    private Optional<ZonedDateTime> firstMovedTime(ZoneOffsetTransition gap, Instant after) {
        CronTrigger wallClock = new CronTrigger(expression, gap.getOffsetBefore());
        LocalDateTime gapEnd = gap.getDateTimeAfter();
        ZonedDateTime skipped = wallClock.getNextRunTime(null, gap.getDateTimeBefore().atZone(gap.getOffsetBefore()));
        while (skipped.toLocalDateTime().isBefore(gapEnd)) {
            ZonedDateTime moved = ZonedDateTime.ofLocal(skipped.toLocalDateTime(), zone, null);
            if (moved.toInstant().isAfter(after)) {
                return Optional.of(moved);
            }
            skipped = wallClock.getNextRunTime(null, skipped.plusSeconds(1));
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return expression + " in " + zone;
    }
}
