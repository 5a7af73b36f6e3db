package dev.jobqueue.internal.schedule;

import dev.jobqueue.internal.cron.CronSchedule;
import dev.jobqueue.internal.cron.SchedulePolicy;
import dev.jobqueue.JobId;
import dev.jobqueue.MissedOccurrences;
import dev.jobqueue.OverlapPolicy;
import dev.jobqueue.ScheduleInfo;
import dev.jobqueue.internal.store.ScheduleRow;
import java.time.Duration;
import java.time.ZoneId;

/** Reads a stored schedule row back into its cron schedule, policy and public view. */
final class StoredSchedule {

    private StoredSchedule() {
    }

    /** @throws IllegalArgumentException if the row's expression, zone or policy cannot be read */
    static CronSchedule cron(ScheduleRow row) {
        return CronSchedule.parse(row.cron(), row.zone());
    }

    static SchedulePolicy policy(ScheduleRow row) {
        return new SchedulePolicy(MissedOccurrences.valueOf(row.missed()), Duration.ofMillis(row.missedAfterMs()),
                row.catchUpLimit(), OverlapPolicy.valueOf(row.overlap()));
    }

    static ScheduleInfo info(ScheduleRow row) {
        ZoneId zone = ZoneId.of(row.zone());
        return new ScheduleInfo(row.name(), row.queue(), row.cron(), row.zone(), row.declared(), row.enabled(),
                row.declarationGone(), row.paused(), row.nextFireAt().atZone(zone), row.lastFireAt() == null ? null : row.lastFireAt().atZone(zone),
                row.lastJobId() == null ? null : JobId.parse(row.lastJobId()), row.lastJobState(),
                MissedOccurrences.valueOf(row.missed()), OverlapPolicy.valueOf(row.overlap()));
    }
}
