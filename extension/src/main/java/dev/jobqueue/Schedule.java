package dev.jobqueue;

import java.time.Duration;
import java.time.ZoneId;
import java.util.Objects;
import java.util.Optional;

/**
 * A recurring schedule made in code, for schedules that come from data, such as one per tenant; save it with
 * {@link JobSchedules#save}. Each occurrence puts a job carrying the payload, or an {@link Occurrence} if it has
 * none, on the queue. Immutable: each method returns a changed copy.
 *
 * <pre>{@code
 * schedules.save(Schedule.cron("report-tenant-42", "tenant-report", "0 6 * * MON")
 *         .zone(ZoneId.of("Europe/Berlin")).payload(new TenantReport(42)));
 * }</pre>
 */
public final class Schedule {

    private final String name;
    private final String queue;
    private final String cron;
    private final ZoneId zone;
    private final Object payload;
    private final MissedOccurrences missed;
    private final Duration missedAfter;
    private final int catchUpLimit;
    private final OverlapPolicy overlap;

    private Schedule(String name, String queue, String cron, ZoneId zone, Object payload, MissedOccurrences missed,
            Duration missedAfter, int catchUpLimit, OverlapPolicy overlap) {
        this.name = Objects.requireNonNull(name, "name");
        this.queue = Objects.requireNonNull(queue, "queue");
        this.cron = Objects.requireNonNull(cron, "cron");
        this.zone = Objects.requireNonNull(zone, "zone");
        this.payload = payload;
        this.missed = Objects.requireNonNull(missed, "missed");
        this.missedAfter = Objects.requireNonNull(missedAfter, "missedAfter");
        this.catchUpLimit = catchUpLimit;
        this.overlap = Objects.requireNonNull(overlap, "overlap");
    }

    /**
     * A schedule in UTC, with the defaults: missed occurrences run once, an occurrence counts as missed a minute
     * late, and occurrences do not overlap.
     *
     * @param name  unique among schedules, matching {@code [a-z0-9][a-z0-9._-]*}
     * @param queue the queue its jobs go to
     * @param cron  five fields (minute hour day-of-month month day-of-week) or six (seconds first)
     */
    public static Schedule cron(String name, String queue, String cron) {
        return new Schedule(name, queue, cron, ZoneId.of("UTC"), null, MissedOccurrences.ONCE, Duration.ofMinutes(1),
                100, OverlapPolicy.SKIP);
    }

    public Schedule zone(ZoneId zone) {
        return new Schedule(name, queue, cron, zone, payload, missed, missedAfter, catchUpLimit, overlap);
    }

    /** What each occurrence's job carries, serialised with JSON-B when the schedule is saved. */
    public Schedule payload(Object payload) {
        return new Schedule(name, queue, cron, zone, Objects.requireNonNull(payload, "payload"), missed, missedAfter,
                catchUpLimit, overlap);
    }

    public Schedule missed(MissedOccurrences missed) {
        return new Schedule(name, queue, cron, zone, payload, missed, missedAfter, catchUpLimit, overlap);
    }

    public Schedule missedAfter(Duration missedAfter) {
        return new Schedule(name, queue, cron, zone, payload, missed, missedAfter, catchUpLimit, overlap);
    }

    public Schedule catchUpLimit(int catchUpLimit) {
        return new Schedule(name, queue, cron, zone, payload, missed, missedAfter, catchUpLimit, overlap);
    }

    public Schedule overlap(OverlapPolicy overlap) {
        return new Schedule(name, queue, cron, zone, payload, missed, missedAfter, catchUpLimit, overlap);
    }

    public String name() {
        return name;
    }

    public String queue() {
        return queue;
    }

    public String cronExpression() {
        return cron;
    }

    public ZoneId zone() {
        return zone;
    }

    public Optional<Object> payload() {
        return Optional.ofNullable(payload);
    }

    public MissedOccurrences missed() {
        return missed;
    }

    public Duration missedAfter() {
        return missedAfter;
    }

    public int catchUpLimit() {
        return catchUpLimit;
    }

    public OverlapPolicy overlap() {
        return overlap;
    }
}
