package dev.jobqueue.internal.store;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.Query;
import jakarta.persistence.TypedQuery;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

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

    @PersistenceContext(unitName = "jobqueue")
    EntityManager em;

    @Inject
    Dependencies dependencies;

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
            List<?> rows = em.createNativeQuery("SELECT queue, COUNT(*) FROM jobqueue_job WHERE state = '"
                    + state.name() + "' GROUP BY queue").getResultList();
            for (Object row : rows) {
                Object[] columns = (Object[]) row;
                counts.add(new StateCount((String) columns[0], state, ((Number) columns[1]).longValue()));
            }
        }
        return counts;
    }

    @Transactional(TxType.REQUIRES_NEW)
    public List<QueueControlRow> queueControls() {
        return em.createQuery("SELECT q FROM JobqueueQueue q", QueueControlRow.class).getResultList();
    }

    /** FAILED jobs, newest first, without their payloads; all queues when {@code queue} is null. */
    @Transactional(TxType.REQUIRES_NEW)
    public List<JobListing> failed(String queue, int offset, int limit) {
        TypedQuery<Object[]> query = em.createQuery("SELECT " + JobListing.COLUMNS
                + " FROM JobqueueJob j WHERE j.state = :failed" + (queue == null ? "" : " AND j.queue = :queue")
                + " ORDER BY j.finishedAt DESC, j.id", Object[].class)
                .setParameter("failed", JobState.FAILED);
        if (queue != null) {
            query.setParameter("queue", queue);
        }
        return query.setFirstResult(offset).setMaxResults(limit).getResultStream()
                .map(row -> JobListing.of(row, 0)).toList();
    }

    /** The queue's jobs in {@code states}, oldest first, payloads included: at most {@code limit}. */
    @Transactional(TxType.REQUIRES_NEW)
    public List<JobRow> jobs(String queue, Collection<JobState> states, int limit) {
        return em.createQuery("SELECT j FROM JobqueueJob j WHERE j.queue = :queue AND j.state IN :states"
                + " ORDER BY j.createdAt, j.id", JobRow.class)
                .setParameter("queue", queue)
                .setParameter("states", states)
                .setMaxResults(limit)
                .getResultList();
    }

    @Transactional(TxType.REQUIRES_NEW)
    public Optional<JobRow> job(String id) {
        return Optional.ofNullable(em.find(JobRow.class, id));
    }

    /**
     * One job with at most the first {@code maxPayloadChars} characters of its payload, or all of it for
     * {@link Integer#MAX_VALUE}: the database cuts it, so a large payload is not read to be shown.
     */
    @Transactional(TxType.REQUIRES_NEW)
    public Optional<JobView> view(String id, int maxPayloadChars) {
        boolean whole = maxPayloadChars == Integer.MAX_VALUE;
        // H2 answers SUBSTRING(x, 1, Integer.MAX_VALUE) with nothing, so the whole payload is selected as it is.
        var query = em.createQuery("SELECT " + JobListing.COLUMNS + ", "
                + (whole ? "j.payload" : "SUBSTRING(j.payload, 1, :chars)") + ", LENGTH(j.payload)"
                + " FROM JobqueueJob j WHERE j.id = :id", Object[].class)
                .setParameter("id", id);
        if (!whole) {
            query.setParameter("chars", maxPayloadChars);
        }
        return query.getResultStream().findFirst()
                .map(row -> new JobView(JobListing.of(row, 0), (String) row[8], ((Number) row[9]).longValue()));
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
     * Makes a FAILED job PENDING again with a fresh set of attempts, or WAITING if a job it waits for is
     * unfinished. Not if its dedupe key is now held by another unfinished job, and not if a job it waits for is
     * FAILED: it would wait forever. The jobs it waits for are locked first, so none of them can fail between the
     * check and the retry without seeing this job WAITING and failing it in turn.
     */
    @Transactional(TxType.REQUIRES_NEW)
    public RetryResult retryJob(String id, Instant now) {
        @SuppressWarnings("unchecked")
        List<Object[]> dependencies = em.createNativeQuery("""
                SELECT id, state FROM jobqueue_job
                WHERE id IN (SELECT depends_on FROM jobqueue_job_dependency WHERE job_id = :id)
                ORDER BY id FOR UPDATE""", Object[].class)
                .setParameter("id", id)
                .getResultList();
        Optional<String> failed = dependencies.stream()
                .filter(row -> JobState.FAILED.name().equals(String.valueOf(row[1]).trim()))
                .map(row -> (String) row[0]).findFirst();
        if (failed.isPresent()) {
            return new RetryResult(false, failed);
        }
        return new RetryResult(retryWhere("id = :key", id, now) == 1, Optional.empty());
    }

    /**
     * Retries every FAILED job of a queue, as {@link #retryJob} does, {@value Chunks#SIZE} at a time in finish
     * order, each chunk in its own transaction. Jobs it cannot retry stay FAILED and are passed over.
     */
    public int retryQueue(String queue, Instant now) {
        return chunks.<FailedKey>run(from -> retryChunk(queue, now, from));
    }

    /** Where a chunk of {@link #retryQueue} ended: FAILED jobs are paged in (finished_at, id) order. */
    private record FailedKey(Instant finishedAt, String id) {
    }

    private Chunks.Step<FailedKey> retryChunk(String queue, Instant now, FailedKey from) {
        List<FailedKey> keys = jdbc.run((connection, db) -> {
            // The state is a literal, so that PostgreSQL's generic plan can read its partial index.
            try (PreparedStatement select = connection.prepareStatement("SELECT finished_at, id FROM jobqueue_job"
                    + " WHERE queue = ? AND state = 'FAILED'"
                    + (from == null ? "" : " AND finished_at >= ? AND (finished_at > ? OR id > ?)")
                    + " ORDER BY finished_at, id LIMIT " + Chunks.SIZE)) {
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
        if (keys.isEmpty()) {
            return new Chunks.Step<>(0, 0, null);
        }
        int retried = retryQuery("queue = :key AND id IN (:ids)", now)
                .setParameter("key", queue)
                .setParameter("ids", keys.stream().map(FailedKey::id).toList())
                .executeUpdate();
        return new Chunks.Step<>(keys.size(), retried, keys.get(keys.size() - 1));
    }

    /**
     * Retries the FAILED jobs among {@code ids} in the caller's transaction, as {@link #retryQueue} retries a
     * queue's; returns how many it retried.
     */
    int retryAmong(Collection<String> ids, Instant now) {
        return ids.isEmpty() ? 0 : retryQuery("id IN (:ids)", now).setParameter("ids", ids).executeUpdate();
    }

    private int retryWhere(String condition, String key, Instant now) {
        return retryQuery(condition, now).setParameter("key", key).executeUpdate();
    }

    private Query retryQuery(String condition, Instant now) {
        return em.createNativeQuery("""
                UPDATE jobqueue_job SET attempts = 0, run_at = :now, finished_at = NULL,
                    state = CASE WHEN EXISTS (SELECT 1 FROM jobqueue_job_dependency d
                        JOIN jobqueue_job p ON p.id = d.depends_on
                        WHERE d.job_id = jobqueue_job.id AND p.state <> 'DONE') THEN 'WAITING' ELSE 'PENDING' END
                WHERE state = 'FAILED' AND (dedupe_key IS NULL OR NOT EXISTS (SELECT 1 FROM jobqueue_job h
                    WHERE h.queue = jobqueue_job.queue AND h.dedupe_key = jobqueue_job.dedupe_key
                        AND h.state IN ('PENDING', 'RUNNING', 'WAITING')))""" + " AND " + condition)
                .setParameter("now", now);
    }

    /**
     * Deletes a job unless it is RUNNING; its error history goes with it. Jobs that waited only for it are
     * released, since a job that no longer exists counts as DONE.
     */
    @Transactional(TxType.REQUIRES_NEW)
    public boolean delete(String id) {
        boolean deleted = em.createQuery("DELETE FROM JobqueueJob j WHERE j.id = :id AND j.state <> :running")
                .setParameter("id", id)
                .setParameter("running", JobState.RUNNING)
                .executeUpdate() == 1;
        if (deleted) {
            dependencies.release(id);
        }
        return deleted;
    }

    /**
     * Deletes the queue's FAILED jobs that failed before {@code cutoff}, {@value Chunks#SIZE} at a time, each
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
        QueueControlRow control = em.find(QueueControlRow.class, queue);
        if (control == null) {
            if (!known && !hasJobs(queue)) {
                return false;
            }
            control = new QueueControlRow(queue);
            control.setPaused(true, now);
            em.persist(control);
        } else {
            control.setPaused(true, now);
        }
        return true;
    }

    /**
     * Resumes a queue on every node by deleting its switch, since a queue without one is not paused. That also
     * clears a switch left for a queue that no longer exists.
     *
     * @return false for a queue that does not exist and had no switch
     */
    @Transactional(TxType.REQUIRES_NEW)
    public boolean resume(String queue, boolean known) {
        int deleted = em.createQuery("DELETE FROM JobqueueQueue q WHERE q.name = :queue")
                .setParameter("queue", queue)
                .executeUpdate();
        return deleted > 0 || known || hasJobs(queue);
    }

    private boolean hasJobs(String queue) {
        return !em.createQuery("SELECT j.id FROM JobqueueJob j WHERE j.queue = :queue", String.class)
                .setParameter("queue", queue)
                .setMaxResults(1)
                .getResultList().isEmpty();
    }
}
