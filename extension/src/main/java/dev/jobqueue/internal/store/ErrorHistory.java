package dev.jobqueue.internal.store;

import static dev.jobqueue.internal.store.Database.placeholders;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * The error history of each job, in {@code jobqueue_job_error}, bounded: the first {@value #FIRST_KEPT} errors,
 * which say how the trouble began, and the last {@value #LAST_KEPT}, which say how it goes now. A job retried for
 * days, or replayed again and again, keeps at most {@value #MAX_KEPT} rows; the attempt numbers of the kept ones
 * show where the gap is.
 */
@ApplicationScoped
public class ErrorHistory {

    public static final int FIRST_KEPT = 5;
    public static final int LAST_KEPT = 20;
    public static final int MAX_KEPT = FIRST_KEPT + LAST_KEPT;
    /** Ids per DELETE when a long history from before the bound is cut down. */
    private static final int DELETE_CHUNK = 1_000;

    @Inject
    TransactionalJdbc jdbc;

    /** Records a failed attempt's error in the caller's transaction and drops the one that falls out of the bound. */
    @Transactional(TxType.MANDATORY)
    public void add(String jobId, int attempt, Instant failedAt, String error) {
        jdbc.update("INSERT INTO jobqueue_job_error (id, job_id, attempt, failed_at, error) VALUES (?, ?, ?, ?, ?)",
                UUID.randomUUID().toString(), jobId, attempt, failedAt, error);
        List<String> ids = jdbc.query(
                "SELECT id FROM jobqueue_job_error WHERE job_id = ? ORDER BY failed_at, attempt, id",
                (row, db) -> row.getString(1), jobId);
        if (ids.size() <= MAX_KEPT) {
            return;
        }
        List<String> dropped = ids.subList(FIRST_KEPT, ids.size() - LAST_KEPT);
        for (int from = 0; from < dropped.size(); from += DELETE_CHUNK) {
            List<String> chunk = dropped.subList(from, Math.min(from + DELETE_CHUNK, dropped.size()));
            jdbc.update("DELETE FROM jobqueue_job_error WHERE id IN (" + placeholders(chunk.size()) + ")", chunk);
        }
    }

    /** A page of the job's kept errors, oldest first. */
    @Transactional(TxType.REQUIRES_NEW)
    public List<JobErrorRow> page(String jobId, int offset, int limit) {
        return jdbc.query("SELECT attempt, failed_at, error FROM jobqueue_job_error WHERE job_id = ?"
                + " ORDER BY failed_at, attempt, id LIMIT ? OFFSET ?",
                (row, db) -> new JobErrorRow(row.getInt(1), db.instant(row, 2), row.getString(3)),
                jobId, limit, offset);
    }

    /** How many errors the job keeps. */
    @Transactional(TxType.REQUIRES_NEW)
    public long count(String jobId) {
        return jdbc.query("SELECT COUNT(*) FROM jobqueue_job_error WHERE job_id = ?", (row, db) -> row.getLong(1),
                jobId).get(0);
    }
}
