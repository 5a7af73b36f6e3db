package dev.jobqueue.internal.store;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.time.Instant;
import java.util.List;

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

    @PersistenceContext(unitName = "jobqueue")
    EntityManager em;

    /** Records a failed attempt's error in the caller's transaction and drops the one that falls out of the bound. */
    @Transactional(TxType.MANDATORY)
    public void add(String jobId, int attempt, Instant failedAt, String error) {
        em.persist(new JobErrorRow(jobId, attempt, failedAt, error));
        List<String> ids = em.createQuery("""
                SELECT e.id FROM JobqueueJobError e WHERE e.jobId = :job ORDER BY e.failedAt, e.attempt, e.id""",
                String.class).setParameter("job", jobId).getResultList();
        if (ids.size() <= MAX_KEPT) {
            return;
        }
        List<String> dropped = ids.subList(FIRST_KEPT, ids.size() - LAST_KEPT);
        for (int from = 0; from < dropped.size(); from += DELETE_CHUNK) {
            em.createQuery("DELETE FROM JobqueueJobError e WHERE e.id IN :ids")
                    .setParameter("ids", dropped.subList(from, Math.min(from + DELETE_CHUNK, dropped.size())))
                    .executeUpdate();
        }
    }

    /** A page of the job's kept errors, oldest first. */
    @Transactional(TxType.REQUIRES_NEW)
    public List<JobErrorRow> page(String jobId, int offset, int limit) {
        return em.createQuery("""
                SELECT e FROM JobqueueJobError e WHERE e.jobId = :job ORDER BY e.failedAt, e.attempt, e.id""",
                JobErrorRow.class)
                .setParameter("job", jobId)
                .setFirstResult(offset)
                .setMaxResults(limit)
                .getResultList();
    }

    /** How many errors the job keeps. */
    @Transactional(TxType.REQUIRES_NEW)
    public long count(String jobId) {
        return em.createQuery("SELECT COUNT(e) FROM JobqueueJobError e WHERE e.jobId = :job", Long.class)
                .setParameter("job", jobId).getSingleResult();
    }
}
