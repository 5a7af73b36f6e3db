package dev.jobqueue.internal.store;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.PersistenceException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;

/**
 * An operator's retries and deletes of dead letters in bulk: the jobs picked by id, or every FAILED job that
 * matches a filter. A job that is no longer FAILED when the action reaches it is passed over, so a count is of the
 * jobs actually touched. Matching jobs are taken {@value Chunks#SIZE} at a time, newest first, each chunk in its
 * own transaction, as {@link Chunks} explains.
 */
@ApplicationScoped
public class FailedJobActions {

    @Inject
    AdminStore adminStore;

    @Inject
    TransactionalJdbc jdbc;

    @Inject
    Transactions transactions;

    @Inject
    Groups groups;

    @Inject
    Chunks chunks;

    /** Retries the FAILED jobs among {@code ids}, in one transaction; returns how many. */
    public int retry(List<String> ids, Instant now) {
        return inNewTransaction(() -> adminStore.retryAmong(ids, now));
    }

    /** Deletes the FAILED jobs among {@code ids}, in one transaction; returns how many. */
    public int delete(List<String> ids) {
        return inNewTransaction(() -> deleteAmong(ids));
    }

    /** Retries every job that matches {@code failed}, a filter of FAILED jobs; returns how many. */
    public int retryMatching(JobFilter failed, Instant now) {
        requireFailed(failed);
        return chunks.<Long>run(from -> {
            Matching chunk = nextChunk(failed, from);
            return new Chunks.Step<>(chunk.ids().size(), adminStore.retryAmong(chunk.ids(), now), chunk.lastSeq());
        });
    }

    /** Deletes every job that matches {@code failed}, a filter of FAILED jobs; returns how many. */
    public int deleteMatching(JobFilter failed) {
        requireFailed(failed);
        return chunks.<Long>run(from -> {
            Matching chunk = nextChunk(failed, from);
            return new Chunks.Step<>(chunk.ids().size(), deleteAmong(chunk.ids()), chunk.lastSeq());
        });
    }

    private static void requireFailed(JobFilter filter) {
        if (filter.state() != JobState.FAILED) {
            throw new IllegalArgumentException("bulk actions take FAILED jobs only, not " + filter.state());
        }
    }

    /** A chunk of matching jobs, and the put order of its oldest, where the next chunk starts. */
    private record Matching(List<String> ids, Long lastSeq) {
    }

    /** The next chunk of matching jobs, newest first, put before {@code from} (the last chunk's oldest). */
    private Matching nextChunk(JobFilter filter, Long from) {
        return jdbc.run((connection, db) -> {
            try (PreparedStatement select = connection.prepareStatement("SELECT id, seq FROM jobqueue_job WHERE "
                    + filter.where() + (from == null ? "" : " AND seq < ?") + " ORDER BY seq DESC LIMIT "
                    + Chunks.SIZE)) {
                int next = filter.bind(select, 1);
                if (from != null) {
                    select.setLong(next, from);
                }
                List<String> ids = new ArrayList<>();
                Long lastSeq = from;
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        ids.add(rows.getString(1));
                        lastSeq = rows.getLong(2);
                    }
                }
                return new Matching(ids, lastSeq);
            }
        });
    }

    /** Deletes the FAILED jobs among {@code ids} with their errors and dependency rows, and groups left empty. */
    private int deleteAmong(List<String> ids) {
        if (ids.isEmpty()) {
            return 0;
        }
        return jdbc.run((connection, db) -> {
            Set<String> touchedGroups = new TreeSet<>();
            try (PreparedStatement select = connection.prepareStatement("SELECT group_name FROM jobqueue_job"
                    + " WHERE id IN (" + Database.placeholders(ids.size()) + ") AND state = 'FAILED'")) {
                Database.bindStrings(select, 1, ids);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        touchedGroups.add(rows.getString(1));
                    }
                }
            }
            touchedGroups.removeIf(Objects::isNull);
            int deleted;
            try (PreparedStatement delete = connection.prepareStatement("DELETE FROM jobqueue_job WHERE id IN ("
                    + Database.placeholders(ids.size()) + ") AND state = 'FAILED'")) {
                Database.bindStrings(delete, 1, ids);
                deleted = delete.executeUpdate();
            }
            groups.deleteEmpty(touchedGroups);
            return deleted;
        });
    }

    private int inNewTransaction(Callable<Integer> work) {
        try {
            return transactions.inNewTransaction(work);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new PersistenceException("jobqueue: " + e.getMessage(), e);
        }
    }
}
