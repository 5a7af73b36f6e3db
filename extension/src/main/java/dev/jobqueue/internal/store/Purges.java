package dev.jobqueue.internal.store;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Deletes finished jobs in bulk: DONE jobs past their queue's retention, FAILED jobs an operator purges. It
 * works {@value Chunks#SIZE} jobs at a time, oldest first, each chunk in its own transaction, however many
 * jobs match; their errors and dependency rows go with them. A group whose last job a chunk deletes loses its
 * row in the same transaction.
 */
@ApplicationScoped
public class Purges {

    @Inject
    Chunks chunks;

    @Inject
    TransactionalJdbc jdbc;

    @Inject
    Groups groups;

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
    private record Finished(String id, String group, Instant finishedAt) {
    }

    /**
     * Deletes the oldest chunk of matching jobs that finished at or after {@code from}. Each chunk starts where
     * the last one ended: on PostgreSQL the index entries of the rows just deleted stay until vacuum, and a
     * scan from the start would step over all of them again, so that each chunk would be slower than the last.
     */
    private Chunks.Step<Instant> purgeChunk(JobState state, String queue, Instant cutoff, Instant from) {
        // The state is a literal, so that PostgreSQL's generic plan can read its partial index, in finish order.
        List<Finished> jobs = jdbc.run((connection, db) -> {
            try (PreparedStatement select = connection.prepareStatement("SELECT id, group_name, finished_at"
                    + " FROM jobqueue_job WHERE queue = ? AND state = '" + state.name() + "' AND finished_at < ?"
                    + (from == null ? "" : " AND finished_at >= ?")
                    + " ORDER BY finished_at LIMIT " + Chunks.SIZE)) {
                select.setString(1, queue);
                db.bind(select, 2, cutoff);
                if (from != null) {
                    db.bind(select, 3, from);
                }
                List<Finished> found = new ArrayList<>();
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        found.add(new Finished(rows.getString(1), rows.getString(2), db.instant(rows, 3)));
                    }
                }
                return found;
            }
        });
        if (jobs.isEmpty()) {
            return new Chunks.Step<>(0, 0, null);
        }
        int deleted = jdbc.run((connection, db) -> {
            try (PreparedStatement delete = connection.prepareStatement("DELETE FROM jobqueue_job WHERE id IN ("
                    + Database.placeholders(jobs.size()) + ") AND state = '" + state.name() + "'")) {
                for (int i = 0; i < jobs.size(); i++) {
                    delete.setString(i + 1, jobs.get(i).id());
                }
                return delete.executeUpdate();
            }
        });
        Set<String> touchedGroups = new TreeSet<>();
        jobs.stream().map(Finished::group).filter(Objects::nonNull).forEach(touchedGroups::add);
        groups.deleteEmpty(touchedGroups);
        return new Chunks.Step<>(jobs.size(), deleted, jobs.get(jobs.size() - 1).finishedAt());
    }
}
