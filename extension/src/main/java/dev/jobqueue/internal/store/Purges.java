package dev.jobqueue.internal.store;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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
        return chunks.<Void>run(ignored -> purgeChunk(state, queue, cutoff));
    }

    private Chunks.Step<Void> purgeChunk(JobState state, String queue, Instant cutoff) {
        List<String> ids = new ArrayList<>();
        Set<String> touchedGroups = new TreeSet<>();
        // The state is a literal, so that PostgreSQL's generic plan can read its partial index, in finish order.
        int deleted = jdbc.run((connection, db) -> {
            try (PreparedStatement select = connection.prepareStatement("SELECT id, group_name FROM jobqueue_job"
                    + " WHERE queue = ? AND state = '" + state.name() + "' AND finished_at < ?"
                    + " ORDER BY finished_at LIMIT " + Chunks.SIZE)) {
                select.setString(1, queue);
                db.bind(select, 2, cutoff);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        ids.add(rows.getString(1));
                        if (rows.getString(2) != null) {
                            touchedGroups.add(rows.getString(2));
                        }
                    }
                }
            }
            if (ids.isEmpty()) {
                return 0;
            }
            try (PreparedStatement delete = connection.prepareStatement("DELETE FROM jobqueue_job WHERE id IN ("
                    + EnqueueStore.placeholders(ids.size()) + ") AND state = '" + state.name() + "'")) {
                for (int i = 0; i < ids.size(); i++) {
                    delete.setString(i + 1, ids.get(i));
                }
                return delete.executeUpdate();
            }
        });
        groups.deleteEmpty(touchedGroups);
        return new Chunks.Step<>(ids.size(), deleted, null);
    }
}
