package dev.jobqueue.it.keys;

import dev.jobqueue.JobId;
import dev.jobqueue.JobOptions;
import dev.jobqueue.JobQueue;
import dev.jobqueue.it.app.PlacedOrder;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.ArrayList;
import java.util.List;

/** Puts jobs in container-managed transactions, as applications do, and reads job rows with plain SQL. */
@Stateless
public class KeyPuts {

    @PersistenceContext(unitName = "app")
    EntityManager em;

    @Inject
    JobQueue jobs;

    /**
     * What {@link #placeOrderTryingBadKey} saw.
     *
     * @param refusals the messages of the IllegalArgumentExceptions the bad puts threw, or "accepted"
     * @param good     the job put after them
     */
    public record Attempts(List<String> refusals, JobId good) {
    }

    /**
     * In one transaction: saves an order, tries to put a job with {@code badKey} as its dedupe key, ordering key,
     * group and queue, then puts a good job. Any exception other than IllegalArgumentException rolls it all back.
     */
    public Attempts placeOrderTryingBadKey(String orderId, String queue, String badKey) {
        em.persist(new PlacedOrder(orderId, "nul"));
        List<String> refusals = new ArrayList<>();
        refusals.add(refusal(() -> jobs.put(queue, orderId, JobOptions.defaults().key(badKey))));
        refusals.add(refusal(() -> jobs.put(queue, orderId, JobOptions.defaults().orderingKey(badKey))));
        refusals.add(refusal(() -> jobs.put(queue, orderId, JobOptions.defaults().group(badKey))));
        refusals.add(refusal(() -> jobs.put(badKey, orderId)));
        return new Attempts(refusals, jobs.put(queue, orderId));
    }

    private static String refusal(Runnable put) {
        try {
            put.run();
            return "accepted";
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    public boolean orderExists(String id) {
        return em.find(PlacedOrder.class, id) != null;
    }

    /** The job's JSON payload, or null if there is no such job. */
    public String payload(JobId id) {
        List<?> rows = em.createNativeQuery("SELECT payload FROM jobqueue_job WHERE id = ?1")
                .setParameter(1, id.toString()).getResultList();
        return rows.isEmpty() ? null : text(rows.get(0));
    }

    public String state(JobId id) {
        List<?> rows = em.createNativeQuery("SELECT state FROM jobqueue_job WHERE id = ?1")
                .setParameter(1, id.toString()).getResultList();
        return rows.isEmpty() ? null : (String) rows.get(0);
    }

    /** The errors recorded for the job's failed attempts, oldest first. */
    public List<String> errors(JobId id) {
        return em.createNativeQuery("SELECT error FROM jobqueue_job_error WHERE job_id = ?1 ORDER BY attempt")
                .setParameter(1, id.toString()).getResultList().stream().map(KeyPuts::text).toList();
    }

    /** H2 returns CLOB columns as java.sql.Clob. */
    private static String text(Object value) {
        try {
            return value instanceof java.sql.Clob clob ? clob.getSubString(1, (int) clob.length()) : (String) value;
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
