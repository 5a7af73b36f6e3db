package dev.jobqueue.internal.store;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.PersistenceException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.Callable;

/**
 * An operator's retries and deletes of dead letters in bulk: the jobs picked by id, or every FAILED job that
 * matches a filter. They follow the rules of the single-job actions, from the same place: {@link Retries} and
 * {@link Deletions}. A job that is no longer FAILED when the action reaches it is passed over, so a count is of the
 * jobs actually touched. Matching jobs are taken {@code jobqueue.bulk-chunk-size} at a time, each chunk in its own
 * transaction, as {@link Chunks} explains.
 */
@ApplicationScoped
public class FailedJobActions {

    @Inject
    TransactionalJdbc jdbc;

    @Inject
    Transactions transactions;

    @Inject
    Retries retries;

    @Inject
    Deletions deletions;

    @Inject
    Chunks chunks;

    /** Retries the FAILED jobs among {@code ids}, in one transaction. */
    public RetryOutcome retry(List<String> ids, Instant now) {
        return inNewTransaction(() -> retries.retryAmong(ids, now));
    }

    /** Deletes the FAILED jobs among {@code ids}, in one transaction; returns how many. */
    public int delete(List<String> ids) {
        return inNewTransaction(() -> deletions.deleteAmong(ids, Deletions.Deletable.FAILED));
    }

    /**
     * Retries every job that matches {@code failed}, a filter of FAILED jobs, oldest first, so that a job is
     * retried before the jobs that wait for it; see {@link Retries#inRuns} for those it still passes over.
     */
    public RetryOutcome retryMatching(JobFilter failed, Instant now) {
        requireFailed(failed);
        return Retries.inRuns(() -> {
            AtomicReference<RetryOutcome> total = new AtomicReference<>(RetryOutcome.NONE);
            chunks.<Long>run(from -> {
                Matching chunk = nextChunk(failed, from, true);
                RetryOutcome outcome = retries.retryAmong(chunk.ids(), now);
                total.accumulateAndGet(outcome, RetryOutcome::plus);
                return new Chunks.Step<>(chunk.ids().size(), outcome.retried(), chunk.lastSeq());
            });
            return total.get();
        });
    }

    /** Deletes every job that matches {@code failed}, a filter of FAILED jobs; returns how many. */
    public int deleteMatching(JobFilter failed) {
        requireFailed(failed);
        return chunks.<Long>run(from -> {
            Matching chunk = nextChunk(failed, from, false);
            return new Chunks.Step<>(chunk.ids().size(), deletions.deleteAmong(chunk.ids(), Deletions.Deletable.FAILED),
                    chunk.lastSeq());
        });
    }

    private static void requireFailed(JobFilter filter) {
        if (filter.state() != JobState.FAILED) {
            throw new IllegalArgumentException("bulk actions take FAILED jobs only, not " + filter.state());
        }
    }

    /** A chunk of matching jobs, and the put order of its last, where the next chunk starts. */
    private record Matching(List<String> ids, Long lastSeq) {
    }

    /**
     * The next chunk of matching jobs after {@code from}, the last chunk's last: in put order if {@code oldestFirst},
     * else newest first.
     */
    private Matching nextChunk(JobFilter filter, Long from, boolean oldestFirst) {
        return jdbc.run((connection, db) -> {
            try (PreparedStatement select = connection.prepareStatement("SELECT id, seq FROM jobqueue_job WHERE "
                    + filter.where() + (from == null ? "" : oldestFirst ? " AND seq > ?" : " AND seq < ?")
                    + " ORDER BY seq " + (oldestFirst ? "ASC" : "DESC") + " LIMIT " + chunks.size())) {
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

    private <T> T inNewTransaction(Callable<T> work) {
        try {
            return transactions.inNewTransaction(work);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new PersistenceException("jobqueue: " + e.getMessage(), e);
        }
    }
}
