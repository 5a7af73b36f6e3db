package dev.jobqueue.internal.store;

import java.sql.ResultSet;
import java.sql.SQLException;
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

    /** The select list that {@link #read} reads, the first columns of a row. */
    static final String COLUMNS = "id, queue, state, attempts, created_at, run_at, finished_at, last_error";

    /** Reads the columns of {@link #COLUMNS}, the first of {@code row}. */
    static JobListing read(ResultSet row, Database db) throws SQLException {
        return new JobListing(row.getString(1), row.getString(2), JobState.valueOf(row.getString(3)), row.getInt(4),
                db.instant(row, 5), db.instant(row, 6), db.instant(row, 7), row.getString(8));
    }
}
