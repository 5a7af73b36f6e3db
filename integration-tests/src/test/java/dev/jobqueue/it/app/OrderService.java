package dev.jobqueue.it.app;

import dev.jobqueue.JobId;
import dev.jobqueue.JobQueue;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

/** A container-managed-transaction EJB that saves an order and puts a job, as applications do. */
@Stateless
public class OrderService {

    @PersistenceContext(unitName = "app")
    EntityManager em;

    @Inject
    JobQueue jobs;

    @Inject
    Recorder recorder;

    public JobId place(Confirmation confirmation) {
        em.persist(new PlacedOrder(confirmation.orderId(), "alice"));
        return jobs.put("confirmations", confirmation);
    }

    /** Saves and puts like {@link #place}, then fails, so the container rolls the transaction back. */
    public void placeThenFail(Confirmation confirmation) {
        em.persist(new PlacedOrder(confirmation.orderId(), "bob"));
        recorder.rememberRolledBack(jobs.put("confirmations", confirmation));
        throw new IllegalStateException("payment declined");
    }

    public JobId putFlaky(String text) {
        return jobs.put("flaky", text);
    }

    public boolean orderExists(String id) {
        return em.find(PlacedOrder.class, id) != null;
    }

    /** Counts job rows with a native query, independently of jobqueue's own code. */
    public long jobRows(JobId id) {
        return ((Number) em.createNativeQuery("SELECT COUNT(*) FROM jobqueue_job WHERE id = ?1")
                .setParameter(1, id.toString()).getSingleResult()).longValue();
    }

    public String jobState(JobId id) {
        return (String) em.createNativeQuery("SELECT state FROM jobqueue_job WHERE id = ?1")
                .setParameter(1, id.toString()).getSingleResult();
    }

    /** Locks one job row in the caller's transaction, as a competing claimer would. */
    public void lockJobRow(JobId id) {
        em.createNativeQuery("SELECT id FROM jobqueue_job WHERE id = ?1 FOR UPDATE")
                .setParameter(1, id.toString()).getResultList();
    }

    public int deleteJobs(String queue) {
        return em.createNativeQuery("DELETE FROM jobqueue_job WHERE queue = ?1").setParameter(1, queue)
                .executeUpdate();
    }

    public long jobCount() {
        return ((Number) em.createNativeQuery("SELECT COUNT(*) FROM jobqueue_job").getSingleResult()).longValue();
    }
}
