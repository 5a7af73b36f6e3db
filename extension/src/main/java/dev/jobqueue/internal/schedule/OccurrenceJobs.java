package dev.jobqueue.internal.schedule;

import dev.jobqueue.DuplicatePolicy;
import dev.jobqueue.JobId;
import dev.jobqueue.Occurrence;
import dev.jobqueue.internal.enqueue.JobWriter;
import dev.jobqueue.internal.payload.PayloadCodec;
import dev.jobqueue.internal.store.NewJob;
import dev.jobqueue.internal.store.ScheduleRow;
import dev.jobqueue.internal.time.LeaseClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.Set;

/**
 * Puts the job of one occurrence of a schedule, in the caller's transaction. Its dedupe key names the schedule
 * and the occurrence's local time with its offset, so the two passes of a repeated hour are two occurrences.
 */
@ApplicationScoped
public class OccurrenceJobs {

    @Inject
    JobWriter writer;

    @Inject
    PayloadCodec codec;

    /** The database's clock, which fires schedules: an occurrence's job is due when the schedule fired it. */
    @Inject
    LeaseClock clock;

    /** @return the new job's id, or that of the unfinished job of the same occurrence */
    public JobId put(ScheduleRow schedule, ZonedDateTime occurrence, String key) {
        String payload = schedule.payload() != null ? schedule.payload()
                : codec.toJson(new Occurrence(schedule.name(), occurrence));
        Instant now = clock.now();
        // No trace context: each occurrence's consumer call starts a trace of its own.
        return writer.write(new NewJob(JobId.random().toString(), schedule.queue(), payload, 0, now, now, key, null,
                null, Set.of(), null), DuplicatePolicy.IGNORE);
    }

    /** The dedupe key of a scheduled occurrence. */
    static String key(String schedule, ZonedDateTime occurrence) {
        return "schedule:" + schedule + "@" + occurrence.toOffsetDateTime();
    }

    /** The dedupe key of an occurrence an operator triggered. */
    static String triggeredKey(String schedule, Instant at) {
        return "schedule:" + schedule + "@triggered:" + at;
    }
}
