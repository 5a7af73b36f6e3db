package dev.jobqueue.internal.store;

import dev.jobqueue.JobAdmin.Progress;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/** The queries behind administration and the depth gauges: counts, dead letters, replay, purge, pause. */
@ApplicationScoped
public class AdminStore {

    /**
     * How many of a queue's jobs are in a state.
     *
     * @param queue the queue
     * @param state the state
     * @param count how many
     */
    public record StateCount(String queue, JobState state, long count) {
    }

    @Inject
    Retries retries;

    @Inject
    Deletions deletions;

    @Inject
    Chunks chunks;

    @Inject
    TransactionalJdbc jdbc;

    @Inject
    Purges purges;

    /**
     * Counts jobs by queue and state, for the given states only. Each state is counted by a query of its own that
     * names it as a literal, so that it reads only that state's index: PostgreSQL's partial index of the state,
     * MariaDB's index that starts with the state. A million DONE jobs then cost nothing to a count of PENDING
     * ones, and a count of DONE jobs reads index entries, not rows.
     */
    @Transactional(TxType.REQUIRES_NEW)
    public List<StateCount> count(Collection<JobState> states) {
        List<StateCount> counts = new ArrayList<>();
        for (JobState state : states) {
            counts.addAll(jdbc.query("SELECT queue, COUNT(*) FROM jobqueue_job WHERE state = '" + state.name()
                    + "' GROUP BY queue", (row, db) -> new StateCount(row.getString(1), state, row.getLong(2))));
        }
        return counts;
    }

    @Transactional(TxType.REQUIRES_NEW)
    public List<QueueControlRow> queueControls() {
        return jdbc.query("SELECT name, paused, paused_until, rate_limit, max_running, start_window FROM jobqueue_queue",
                (row, db) -> {
                    int maxRunning = row.getInt(5);
                    Integer maxRunningOverride = row.wasNull() ? null : maxRunning;
                    return new QueueControlRow(row.getString(1), row.getBoolean(2), db.instant(row, 3),
                            row.getString(4), maxRunningOverride, row.getString(6));
                });
    }

    /** FAILED jobs, newest first, without their payloads; all queues when {@code queue} is null. */
    @Transactional(TxType.REQUIRES_NEW)
    public List<JobListing> failed(String queue, int offset, int limit) {
        String sql = "SELECT " + JobListing.COLUMNS + " FROM jobqueue_job WHERE state = 'FAILED'"
                + (queue == null ? "" : " AND queue = ?") + " ORDER BY finished_at DESC, id LIMIT ? OFFSET ?";
        return queue == null
                ? jdbc.query(sql, JobListing::read, limit, offset)
                : jdbc.query(sql, JobListing::read, queue, limit, offset);
    }

    /** The queue's jobs in {@code states}, oldest first, payloads included: at most {@code limit}. */
    @Transactional(TxType.REQUIRES_NEW)
    public List<JobRow> jobs(String queue, Collection<JobState> states, int limit) {
        if (states.isEmpty()) {
            return List.of();
        }
        return jdbc.query("SELECT " + JobRow.COLUMNS + " FROM jobqueue_job WHERE queue = ? AND state IN ("
                + Database.placeholders(states.size()) + ") ORDER BY created_at, id LIMIT ?", JobRow::read,
                queue, states, limit);
    }

    @Transactional(TxType.REQUIRES_NEW)
    public Optional<JobRow> job(String id) {
        return jdbc.query("SELECT " + JobRow.COLUMNS + " FROM jobqueue_job WHERE id = ?", JobRow::read, id).stream()
                .findFirst();
    }

    /**
     * One job with at most the first {@code maxPayloadChars} characters of its payload, or all of it for
     * {@link Integer#MAX_VALUE}: the database cuts it, so a large payload is not read to be shown.
     */
    @Transactional(TxType.REQUIRES_NEW)
    public Optional<JobView> view(String id, int maxPayloadChars) {
        boolean whole = maxPayloadChars == Integer.MAX_VALUE;
        // H2 answers SUBSTRING(x, 1, Integer.MAX_VALUE) with nothing, so the whole payload is selected as it is.
        String sql = "SELECT " + JobListing.COLUMNS + ", " + (whole ? "payload" : "SUBSTRING(payload, 1, ?)")
                + ", CHAR_LENGTH(payload), progress, progress_note, progress_attempt, progress_at"
                + " FROM jobqueue_job WHERE id = ?";
        TransactionalJdbc.RowReader<JobView> reader = (row, db) -> {
            JobListing listing = JobListing.read(row, db);
            double fraction = row.getDouble(11);
            boolean reported = !row.wasNull() && row.getInt(13) == listing.attempts();
            return new JobView(listing, row.getString(9), row.getLong(10), reported
                    ? new Progress(fraction, row.getString(12), listing.attempts(), db.instant(row, 14)) : null);
        };
        return (whole ? jdbc.query(sql, reader, id) : jdbc.query(sql, reader, maxPayloadChars, id)).stream()
                .findFirst();
    }

    /**
     * What retrying one job did.
     *
     * @param retried          whether the job was FAILED and is now PENDING or WAITING
     * @param failedDependency a FAILED job that the job waits for, which kept it from being retried
     */
    public record RetryResult(boolean retried, Optional<String> failedDependency) {
    }

    /**
     * Retries one FAILED job, as {@link Retries} does. Passed over, with the reason, if a job it waits for is
     * FAILED: it would wait forever.
     */
    @Transactional(TxType.REQUIRES_NEW)
    public RetryResult retryJob(String id, Instant now) {
        RetryOutcome outcome = retries.retryAmong(List.of(id), now);
        if (outcome.dependencyFailed() == 1) {
            return new RetryResult(false, retries.failedDependency(id));
        }
        return new RetryResult(outcome.retried() == 1, Optional.empty());
    }

    /**
     * Retries every FAILED job of a queue, as {@link Retries} does, {@code jobqueue.bulk-chunk-size} at a time in finish
     * order, each chunk in its own transaction; see {@link Retries#inRuns} for a job and the jobs that wait for it.
     * Jobs it cannot retry stay FAILED and are passed over.
     */
    public RetryOutcome retryQueue(String queue, Instant now) {
        return Retries.inRuns(() -> {
            AtomicReference<RetryOutcome> total = new AtomicReference<>(RetryOutcome.NONE);
            chunks.<FailedKey>run(from -> {
                List<FailedKey> keys = failedChunk(queue, from);
                if (keys.isEmpty()) {
                    return new Chunks.Step<>(0, 0, null);
                }
                RetryOutcome outcome = retries.retryAmong(keys.stream().map(FailedKey::id).toList(), now);
                total.accumulateAndGet(outcome, RetryOutcome::plus);
                return new Chunks.Step<>(keys.size(), outcome.retried(), keys.get(keys.size() - 1));
            });
            return total.get();
        });
    }

    /** Where a chunk of {@link #retryQueue} ended: FAILED jobs are paged in (finished_at, id) order. */
    private record FailedKey(Instant finishedAt, String id) {
    }

    private List<FailedKey> failedChunk(String queue, FailedKey from) {
        return jdbc.run((connection, db) -> {
            // The state is a literal, so that PostgreSQL's generic plan can read its partial index.
            try (PreparedStatement select = connection.prepareStatement("SELECT finished_at, id FROM jobqueue_job"
                    + " WHERE queue = ? AND state = 'FAILED'"
                    + (from == null ? "" : " AND finished_at >= ? AND (finished_at > ? OR id > ?)")
                    + " ORDER BY finished_at, id LIMIT " + chunks.size())) {
                select.setString(1, queue);
                if (from != null) {
                    db.bind(select, 2, from.finishedAt());
                    db.bind(select, 3, from.finishedAt());
                    select.setString(4, from.id());
                }
                List<FailedKey> found = new ArrayList<>();
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        found.add(new FailedKey(db.instant(rows, 1), rows.getString(2)));
                    }
                }
                return found;
            }
        });
    }

    /**
     * Deletes a job unless it is RUNNING, as {@link Deletions} does: its error history goes with it, and jobs
     * that waited only for it are released, since a job that no longer exists counts as DONE.
     */
    @Transactional(TxType.REQUIRES_NEW)
    public boolean delete(String id) {
        return deletions.deleteAmong(List.of(id), Deletions.Deletable.NOT_RUNNING) == 1;
    }

    /**
     * Deletes the queue's FAILED jobs that failed before {@code cutoff}, {@code jobqueue.bulk-chunk-size} at a time, each
     * chunk in its own transaction.
     */
    public int purgeFailed(String queue, Instant cutoff) {
        return purges.purge(JobState.FAILED, queue, cutoff);
    }

    /**
     * Pauses a queue on every node. Only a queue that exists: one this application consumes ({@code known}), one
     * that has jobs, or one already paused. Otherwise a typo would leave a row that no queue ever clears.
     *
     * @return false, with nothing written, for a queue that does not exist
     */
    @Transactional(TxType.REQUIRES_NEW)
    public boolean pause(String queue, boolean known, Instant now) {
        if (jdbc.update("UPDATE jobqueue_queue SET paused = ?, updated_at = ? WHERE name = ?", true, now, queue) == 1) {
            return true;
        }
        if (!known && !hasJobs(queue)) {
            return false;
        }
        // Another node may make the row between the update and here (a claim of a limited queue does): an insert
        // that passes over it, then the update again.
        jdbc.run((connection, db) -> {
            QueueFlow.createRow(connection, db, queue, now);
            return null;
        });
        jdbc.update("UPDATE jobqueue_queue SET paused = ?, updated_at = ? WHERE name = ?", true, now, queue);
        return true;
    }

    /**
     * Resumes a queue on every node, and ends a backoff its consumer asked for. A row that holds nothing else is
     * deleted, since a queue without one is not paused, which also clears a switch left for a queue that no longer
     * exists; one that holds limits or a rate limit's window of starts stays, so that the limits still hold.
     *
     * @return false for a queue that does not exist and has no row
     */
    @Transactional(TxType.REQUIRES_NEW)
    public boolean resume(String queue, boolean known, Instant now) {
        int changed = jdbc.update("DELETE FROM jobqueue_queue WHERE name = ? AND rate_limit IS NULL"
                + " AND max_running IS NULL AND start_window IS NULL", queue);
        if (changed == 0) {
            changed = jdbc.update("UPDATE jobqueue_queue SET paused = ?, paused_until = NULL, updated_at = ?"
                    + " WHERE name = ?", false, now, queue);
        }
        return changed > 0 || known || hasJobs(queue);
    }

    /**
     * Sets an admin's overrides of a queue's limits, for every node; a null clears one, so that the configuration
     * applies again. Only a queue that exists, as for {@link #pause}.
     *
     * @param rateLimit  a rate limit's text, or {@code none}
     * @param maxRunning a positive limit, or 0 for none
     * @return false, with nothing written, for a queue that does not exist
     */
    @Transactional(TxType.REQUIRES_NEW)
    public boolean setLimits(String queue, String rateLimit, Integer maxRunning, boolean known, Instant now) {
        if (writeLimits("UPDATE jobqueue_queue SET rate_limit = ?, max_running = ?, updated_at = ? WHERE name = ?",
                queue, rateLimit, maxRunning, now) == 1) {
            return true;
        }
        if (!known && !hasJobs(queue)) {
            return false;
        }
        jdbc.run((connection, db) -> {
            QueueFlow.createRow(connection, db, queue, now);
            return null;
        });
        writeLimits("UPDATE jobqueue_queue SET rate_limit = ?, max_running = ?, updated_at = ? WHERE name = ?",
                queue, rateLimit, maxRunning, now);
        return true;
    }

    /** Runs a statement whose parameters are the rate limit, max-running, the time and the queue, in that order. */
    private int writeLimits(String sql, String queue, String rateLimit, Integer maxRunning, Instant now) {
        return jdbc.run((connection, db) -> {
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                statement.setString(1, rateLimit);
                if (maxRunning == null) {
                    statement.setNull(2, Types.INTEGER);
                } else {
                    statement.setInt(2, maxRunning);
                }
                db.bind(statement, 3, now);
                statement.setString(4, queue);
                return statement.executeUpdate();
            }
        });
    }

    private boolean hasJobs(String queue) {
        return !jdbc.query("SELECT id FROM jobqueue_job WHERE queue = ? LIMIT 1", (row, db) -> row.getString(1), queue)
                .isEmpty();
    }
}
