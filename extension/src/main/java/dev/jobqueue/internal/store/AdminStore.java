package dev.jobqueue.internal.store;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.TypedQuery;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.time.Instant;
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

    /** Counts jobs by queue and state, for the given states only (cheap states keep the query cheap). */
    @Transactional(TxType.REQUIRES_NEW)
    public List<StateCount> count(Collection<JobState> states) {
        return em.createQuery("""
                SELECT j.queue, j.state, COUNT(j) FROM JobqueueJob j WHERE j.state IN :states
                GROUP BY j.queue, j.state""", Object[].class)
                .setParameter("states", states)
                .getResultStream()
                .map(row -> new StateCount((String) row[0], (JobState) row[1], ((Number) row[2]).longValue()))
                .toList();
    }

    @Transactional(TxType.REQUIRES_NEW)
    public List<QueueControlRow> queueControls() {
        return em.createQuery("SELECT q FROM JobqueueQueue q", QueueControlRow.class).getResultList();
    }

    /** FAILED jobs, newest first; all queues when {@code queue} is null. */
    @Transactional(TxType.REQUIRES_NEW)
    public List<JobRow> failed(String queue, int offset, int limit) {
        TypedQuery<JobRow> query = em.createQuery("SELECT j FROM JobqueueJob j WHERE j.state = :failed"
                + (queue == null ? "" : " AND j.queue = :queue") + " ORDER BY j.finishedAt DESC, j.id", JobRow.class)
                .setParameter("failed", JobState.FAILED);
        if (queue != null) {
            query.setParameter("queue", queue);
        }
        return query.setFirstResult(offset).setMaxResults(limit).getResultList();
    }

    @Transactional(TxType.REQUIRES_NEW)
    public Optional<JobRow> job(String id) {
        return Optional.ofNullable(em.find(JobRow.class, id));
    }

    @Transactional(TxType.REQUIRES_NEW)
    public List<JobErrorRow> errors(String jobId) {
        return em.createQuery("SELECT e FROM JobqueueJobError e WHERE e.jobId = :id ORDER BY e.attempt, e.failedAt",
                JobErrorRow.class).setParameter("id", jobId).getResultList();
    }

    /**
     * Makes a FAILED job PENDING again with a fresh set of attempts, or WAITING if a job it waits for is
     * unfinished. Not if its dedupe key is now held by another unfinished job.
     */
    @Transactional(TxType.REQUIRES_NEW)
    public boolean retryJob(String id, Instant now) {
        return retryWhere("id = :key", id, now) == 1;
    }

    /** Retries every FAILED job of a queue, as {@link #retryJob} does. */
    @Transactional(TxType.REQUIRES_NEW)
    public int retryQueue(String queue, Instant now) {
        return retryWhere("queue = :key", queue, now);
    }

    private int retryWhere(String condition, String key, Instant now) {
        return em.createNativeQuery("""
                UPDATE jobqueue_job SET attempts = 0, run_at = :now, finished_at = NULL,
                    state = CASE WHEN EXISTS (SELECT 1 FROM jobqueue_job_dependency d
                        JOIN jobqueue_job p ON p.id = d.depends_on
                        WHERE d.job_id = jobqueue_job.id AND p.state <> 'DONE') THEN 'WAITING' ELSE 'PENDING' END
                WHERE state = 'FAILED' AND (dedupe_key IS NULL OR NOT EXISTS (SELECT 1 FROM jobqueue_job h
                    WHERE h.queue = jobqueue_job.queue AND h.dedupe_key = jobqueue_job.dedupe_key
                        AND h.state IN ('PENDING', 'RUNNING', 'WAITING')))""" + " AND " + condition)
                .setParameter("now", now)
                .setParameter("key", key)
                .executeUpdate();
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

    /** Deletes FAILED jobs that failed before {@code cutoff}: of one queue, or of all when it is null. */
    @Transactional(TxType.REQUIRES_NEW)
    public int purgeFailed(String queue, Instant cutoff) {
        var delete = em.createQuery("DELETE FROM JobqueueJob j WHERE j.state = :failed AND j.finishedAt < :cutoff"
                + (queue == null ? "" : " AND j.queue = :queue"))
                .setParameter("failed", JobState.FAILED)
                .setParameter("cutoff", cutoff);
        if (queue != null) {
            delete.setParameter("queue", queue);
        }
        return delete.executeUpdate();
    }

    @Transactional(TxType.REQUIRES_NEW)
    public void setPaused(String queue, boolean paused, Instant now) {
        QueueControlRow control = em.find(QueueControlRow.class, queue);
        if (control == null) {
            control = new QueueControlRow(queue);
            control.setPaused(paused, now);
            em.persist(control);
        } else {
            control.setPaused(paused, now);
        }
    }
}
