package dev.jobqueue.internal.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.jobqueue.DuplicatePolicy;
import dev.jobqueue.JobId;
import dev.jobqueue.internal.enqueue.JobWriter;
import dev.jobqueue.internal.fixtures.SettableClock;
import dev.jobqueue.internal.payload.PayloadCodec;
import dev.jobqueue.internal.store.NewJob;
import dev.jobqueue.internal.store.ScheduleRow;
import dev.jobqueue.internal.time.LeaseClocks;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The job of a schedule's occurrence: due when the schedule fired it, keyed by the occurrence, put by no span. */
class OccurrenceJobsTest {

    private static final Instant NOW = Instant.parse("2026-03-01T09:00:00Z");

    /** Keeps the jobs it is asked to write. */
    private static final class RecordingWriter extends JobWriter {
        final List<NewJob> written = new ArrayList<>();

        @Override
        public JobId write(NewJob job, DuplicatePolicy policy) {
            written.add(job);
            return JobId.parse(job.id());
        }
    }

    @Test
    void an_occurrence_is_due_now_keyed_by_its_time_and_starts_a_trace_of_its_own() {
        RecordingWriter writer = new RecordingWriter();
        OccurrenceJobs jobs = new OccurrenceJobs();
        jobs.writer = writer;
        jobs.codec = new PayloadCodec();
        jobs.clock = LeaseClocks.following(new SettableClock(NOW));
        ScheduleRow schedule = new ScheduleRow("nightly", "reports", "0 0 * * *", "UTC", "{}", "ONCE", 60_000, 1,
                "SKIP", true, true, false, false, NOW, null, null, null);
        ZonedDateTime occurrence = ZonedDateTime.of(2026, 3, 1, 9, 0, 0, 0, ZoneOffset.UTC);

        jobs.put(schedule, occurrence, OccurrenceJobs.key("nightly", occurrence));

        NewJob job = writer.written.get(0);
        assertEquals("reports", job.queue());
        assertEquals(NOW, job.runAt());
        assertEquals("schedule:nightly@2026-03-01T09:00Z", job.dedupeKey());
        assertNull(job.putBy(), "no trace context: each occurrence's call is the root of a trace");
    }
}
