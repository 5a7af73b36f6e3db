package dev.jobqueue.it.bulk;

import dev.jobqueue.DuplicateJobException;
import dev.jobqueue.InvalidPayloadException;
import dev.jobqueue.JobId;
import dev.jobqueue.JobOptions;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobRequest;
import dev.jobqueue.it.app.PlacedOrder;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.Collection;
import java.util.List;

/** Puts jobs in bulk in container-managed transactions, beside an order, and reads job rows with plain SQL. */
@Stateless
public class BulkPuts {

    @PersistenceContext(unitName = "app")
    EntityManager em;

    @Inject
    JobQueue jobs;

    /** Saves an order and puts the payloads, in one transaction. */
    public List<JobId> placeOrder(String orderId, Collection<?> payloads, JobOptions options) {
        em.persist(new PlacedOrder(orderId, "bulk"));
        return jobs.putAll("bulk", payloads, options);
    }

    /** Saves an order and puts the requests, in one transaction. */
    public List<JobId> placeOrder(String orderId, List<JobRequest> requests) {
        em.persist(new PlacedOrder(orderId, "bulk"));
        return jobs.putAll("bulk", requests);
    }

    /** Saves an order, puts the payloads, then fails: the transaction rolls back. */
    public void placeOrderThenFail(String orderId, Collection<?> payloads) {
        placeOrder(orderId, payloads, JobOptions.defaults());
        throw new IllegalStateException("the order fails after its jobs were put");
    }

    /**
     * Saves an order and tries to put the payloads; returns the message of the InvalidPayloadException or
     * DuplicateJobException the put threw, and lets the transaction end as the put left it.
     */
    public String placeOrderTrying(String orderId, Collection<?> payloads, JobOptions options) {
        em.persist(new PlacedOrder(orderId, "bulk"));
        try {
            jobs.putAll("bulk", payloads, options);
            return "accepted";
        } catch (InvalidPayloadException | DuplicateJobException e) {
            return e.getMessage();
        }
    }

    public boolean orderExists(String id) {
        return em.find(PlacedOrder.class, id) != null;
    }

    public String state(JobId id) {
        List<?> rows = em.createNativeQuery("SELECT state FROM jobqueue_job WHERE id = ?1")
                .setParameter(1, id.toString()).getResultList();
        return rows.isEmpty() ? null : (String) rows.get(0);
    }

    /** The JSON payload of the job, or null if there is none. */
    public String payload(JobId id) {
        List<?> rows = em.createNativeQuery("SELECT payload FROM jobqueue_job WHERE id = ?1")
                .setParameter(1, id.toString()).getResultList();
        if (rows.isEmpty()) {
            return null;
        }
        Object value = rows.get(0);
        try {
            return value instanceof java.sql.Clob clob ? clob.getSubString(1, (int) clob.length()) : (String) value;
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** How many jobs of the queue carry a payload that starts with {@code prefix}. */
    public long jobsWithPayloadPrefix(String prefix) {
        return ((Number) em.createNativeQuery("SELECT COUNT(*) FROM jobqueue_job WHERE queue = 'bulk'"
                + " AND payload LIKE ?1").setParameter(1, "\"" + prefix + "%").getSingleResult()).longValue();
    }
}
