package dev.jobqueue.internal.store;

import dev.jobqueue.internal.Messages;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What finishing a job means for the jobs that wait for it, in the finishing transaction. The waiting jobs are
 * locked before the other jobs they wait for are read, so of two jobs finishing at once, the second to commit
 * sees the first as DONE and releases the job that waits for both. This relies on READ COMMITTED.
 */
@ApplicationScoped
public class Dependencies {

    @PersistenceContext(unitName = "jobqueue")
    EntityManager em;

    /**
     * Makes PENDING every WAITING job that waited for {@code id} and now waits for no unfinished job.
     *
     * @return the queues of the released jobs
     */
    @Transactional(TxType.MANDATORY)
    public Set<String> release(String id) {
        List<String> waiting = lockWaitingDependents(List.of(id)).stream().map(row -> (String) row[0]).toList();
        if (waiting.isEmpty()) {
            return Set.of();
        }
        Set<String> ready = new HashSet<>(waiting);
        @SuppressWarnings("unchecked")
        List<String> blocked = em.createNativeQuery("""
                SELECT DISTINCT d.job_id FROM jobqueue_job_dependency d JOIN jobqueue_job j ON j.id = d.depends_on
                WHERE d.job_id IN (:waiting) AND j.state <> 'DONE'""", String.class)
                .setParameter("waiting", waiting)
                .getResultList();
        blocked.forEach(ready::remove);
        if (ready.isEmpty()) {
            return Set.of();
        }
        em.createNativeQuery("UPDATE jobqueue_job SET state = 'PENDING' WHERE id IN (:ready) AND state = 'WAITING'")
                .setParameter("ready", ready)
                .executeUpdate();
        @SuppressWarnings("unchecked")
        List<String> queues = em.createNativeQuery("SELECT DISTINCT queue FROM jobqueue_job WHERE id IN (:ready)",
                String.class).setParameter("ready", ready).getResultList();
        return Set.copyOf(queues);
    }

    /**
     * Makes FAILED every WAITING job that waited for {@code id}, and the jobs that waited for those, naming
     * {@code id} as the reason.
     *
     * @return the jobs that failed
     */
    @Transactional(TxType.MANDATORY)
    public List<FailedDependent> failDependents(String id, Instant now) {
        List<FailedDependent> failed = new ArrayList<>();
        String reason = Messages.dependencyFailed(id);
        List<String> frontier = List.of(id);
        while (!frontier.isEmpty()) {
            List<Object[]> dependents = lockWaitingDependents(frontier);
            List<String> ids = dependents.stream().map(row -> (String) row[0]).toList();
            if (!ids.isEmpty()) {
                em.createNativeQuery("""
                        UPDATE jobqueue_job SET state = 'FAILED', finished_at = :now, last_error = :reason
                        WHERE id IN (:ids) AND state = 'WAITING'""")
                        .setParameter("now", now)
                        .setParameter("reason", reason)
                        .setParameter("ids", ids)
                        .executeUpdate();
                dependents.forEach(row -> failed.add(new FailedDependent((String) row[0], (String) row[1],
                        (String) row[2], reason)));
            }
            frontier = ids;
        }
        return failed;
    }

    @SuppressWarnings("unchecked")
    private List<Object[]> lockWaitingDependents(List<String> ids) {
        return em.createNativeQuery("""
                SELECT id, queue, group_name FROM jobqueue_job
                WHERE state = 'WAITING' AND id IN (SELECT job_id FROM jobqueue_job_dependency WHERE depends_on IN (:ids))
                ORDER BY id FOR UPDATE""", Object[].class)
                .setParameter("ids", ids)
                .getResultList();
    }
}
