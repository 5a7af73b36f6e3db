package dev.jobqueue.internal.store;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Deletes finished jobs in bulk: DONE jobs past their queue's retention, FAILED jobs an operator purges. It
 * works {@code jobqueue.bulk-chunk-size} jobs at a time, oldest first, each chunk in its own transaction, however many
 * jobs match, and deletes each chunk as {@link Deletions} deletes any job: in the same transaction, the jobs
 * that waited for a deleted one are released and a group left with no job loses its row.
 */
@ApplicationScoped
public class Purges {

    @Inject
    Chunks chunks;

    @Inject
    TransactionalJdbc jdbc;

    @Inject
    Deletions deletions;

    /**
     * Deletes the queue's jobs in {@code state}, DONE or FAILED, that finished before {@code cutoff}. Call it
     * outside a transaction, or the chunks wait for it.
     *
     * @return how many were deleted
     */
    public int purge(JobState state, String queue, Instant cutoff) {
        if (state != JobState.DONE && state != JobState.FAILED) {
            throw new IllegalArgumentException("only DONE and FAILED jobs are purged, not " + state);
        }
        return chunks.<Instant>run(from -> purgeChunk(state, queue, cutoff, from));
    }

    /** A job a purge chunk deletes. */
    private record Finished(String id, Instant finishedAt) {
    }

    /**
     * Deletes the oldest chunk of matching jobs that finished at or after {@code from}. Each chunk starts where
     * the last one ended: on PostgreSQL the index entries of the rows just deleted stay until vacuum, and a
     * scan from the start would step over all of them again, so that each chunk would be slower than the last.
     */
    private Chunks.Step<Instant> purgeChunk(JobState state, String queue, Instant cutoff, Instant from) {
        // The state is a literal, so that PostgreSQL's generic plan can read its partial index, in finish order.
        List<Finished> jobs = jdbc.run((connection, db) -> {
            try (PreparedStatement select = connection.prepareStatement("SELECT id, finished_at"
                    + " FROM jobqueue_job WHERE queue = ? AND state = '" + state.name() + "' AND finished_at < ?"
                    + (from == null ? "" : " AND finished_at >= ?")
                    + " ORDER BY finished_at LIMIT " + chunks.size())) {
                select.setString(1, queue);
                db.bind(select, 2, cutoff);
                if (from != null) {
                    db.bind(select, 3, from);
                }
                List<Finished> found = new ArrayList<>();
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        found.add(new Finished(rows.getString(1), db.instant(rows, 2)));
                    }
                }
                return found;
            }
        });
        if (jobs.isEmpty()) {
            return new Chunks.Step<>(0, 0, null);
        }
        int deleted = deletions.deleteAmong(jobs.stream().map(Finished::id).toList(),
                state == JobState.DONE ? Deletions.Deletable.DONE : Deletions.Deletable.FAILED);
        return new Chunks.Step<>(jobs.size(), deleted, jobs.get(jobs.size() - 1).finishedAt());
    }
}
