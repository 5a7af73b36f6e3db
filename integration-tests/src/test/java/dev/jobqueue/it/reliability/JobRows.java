package dev.jobqueue.it.reliability;

import dev.jobqueue.JobId;
import dev.jobqueue.it.app.PlacedOrder;
import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;

/** Reads job rows, and changes them as another node would, through plain SQL. */
@Stateless
public class JobRows {

    @PersistenceContext(unitName = "app")
    EntityManager em;

    /** The row's state, attempts and lease token. */
    public Object[] row(JobId id) {
        return (Object[]) em.createNativeQuery("SELECT state, attempts, lease_token FROM jobqueue_job WHERE id = ?1")
                .setParameter(1, id.toString()).getSingleResult();
    }

    public String state(JobId id) {
        return (String) row(id)[0];
    }

    public int attempts(JobId id) {
        return ((Number) row(id)[1]).intValue();
    }

    public String leaseToken(JobId id) {
        return (String) row(id)[2];
    }

    /** Takes a RUNNING job's lease back, as another node's rescue does once the lease has expired. */
    public void rescueAsAnotherNode(JobId id) {
        em.createNativeQuery("UPDATE jobqueue_job SET state = 'PENDING', lease_token = NULL, lease_expires_at = NULL"
                + " WHERE id = ?1 AND state = 'RUNNING'").setParameter(1, id.toString()).executeUpdate();
    }

    /**
     * Makes the job RUNNING on another node, as if that node had claimed it after taking it back, with a lease
     * that ends at the due time of {@code leaseEnd}, a job put with a delay.
     */
    public void claimAsAnotherNode(JobId id, JobId leaseEnd) {
        // The derived table lets MariaDB read the table it updates.
        em.createNativeQuery("UPDATE jobqueue_job SET state = 'RUNNING', lease_token = 'other-node',"
                + " claimed_by = 'other-node', lease_expires_at = (SELECT run_at FROM (SELECT run_at FROM"
                + " jobqueue_job WHERE id = ?1) lease_end) WHERE id = ?2")
                .setParameter(1, leaseEnd.toString()).setParameter(2, id.toString()).executeUpdate();
    }

    public void saveOrder(String id) {
        em.persist(new PlacedOrder(id, "reliability"));
    }

    /** The ids of the orders whose id starts with {@code prefix}. */
    public List<String> orders(String prefix) {
        return em.createQuery("SELECT o.id FROM PlacedOrder o WHERE o.id LIKE :prefix ORDER BY o.id", String.class)
                .setParameter("prefix", prefix + "%").getResultList();
    }
}
