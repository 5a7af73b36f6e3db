package dev.jobqueue.internal.store;

import java.time.Instant;

/**
 * A job as the admin listings show it: everything but its payload, which a listing never reads.
 *
 * @param id         the job
 * @param queue      its queue
 * @param state      its state
 * @param attempts   attempts made
 * @param createdAt  when it was put
 * @param runAt      when it is or was due
 * @param finishedAt when it became DONE or FAILED, or null
 * @param lastError  the last error, or null
 */
public record JobListing(String id, String queue, JobState state, int attempts, Instant createdAt, Instant runAt,
        Instant finishedAt, String lastError) {

    /** The JPQL select list that {@link #of(Object[], int)} reads, for the alias {@code j}. */
    static final String COLUMNS = "j.id, j.queue, j.state, j.attempts, j.createdAt, j.runAt, j.finishedAt, j.lastError";

    /** Reads the columns of {@link #COLUMNS} from {@code row}, starting at {@code first}. */
    static JobListing of(Object[] row, int first) {
        return new JobListing((String) row[first], (String) row[first + 1], (JobState) row[first + 2],
                ((Number) row[first + 3]).intValue(), (Instant) row[first + 4], (Instant) row[first + 5],
                (Instant) row[first + 6], (String) row[first + 7]);
    }
}
