package dev.jobqueue.it.options;

import dev.jobqueue.DuplicateJobException;
import dev.jobqueue.JobId;
import dev.jobqueue.JobOptions;
import dev.jobqueue.JobQueue;
import dev.jobqueue.it.app.PlacedOrder;
import jakarta.annotation.Resource;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;

/** Puts jobs in container-managed transactions, as applications do, and reads job rows with plain SQL. */
@Stateless
public class Puts {

    @PersistenceContext(unitName = "app")
    EntityManager em;

    @Inject
    JobQueue jobs;

    @Resource
    SessionContext session;

    /** Puts in this bean's transaction, which commits when the call returns. */
    public JobId put(String queue, String payload) {
        return jobs.put(queue, payload);
    }

    /** Puts, then rolls this bean's transaction back. */
    public void putAndRollBack(String queue, String payload) {
        jobs.put(queue, payload);
        session.setRollbackOnly();
    }

    /** Puts, then holds the transaction open for {@code holdMillis}, so concurrent puts overlap. */
    public JobId putAndHold(String queue, String payload, JobOptions options, long holdMillis)
            throws InterruptedException {
        JobId id = jobs.put(queue, payload, options);
        Thread.sleep(holdMillis);
        return id;
    }

    /** Saves an order and puts a job that may be rejected as a duplicate; the order commits either way. */
    public JobId placeOrderRejectingDuplicates(String orderId, String queue, String key) {
        em.persist(new PlacedOrder(orderId, "carol"));
        try {
            return jobs.put(queue, orderId, JobOptions.defaults().key(key, dev.jobqueue.DuplicatePolicy.REJECT));
        } catch (DuplicateJobException e) {
            return null;
        }
    }

    public boolean orderExists(String id) {
        return em.find(PlacedOrder.class, id) != null;
    }

    /** How many job rows of {@code queue} carry the dedupe key. */
    public long rowsWithKey(String queue, String key) {
        return ((Number) em.createNativeQuery("SELECT COUNT(*) FROM jobqueue_job WHERE queue = ?1 AND dedupe_key = ?2")
                .setParameter(1, queue).setParameter(2, key).getSingleResult()).longValue();
    }

    /** How many of the jobs have a row in {@code state}, or any row if {@code state} is null. */
    public long rowsInState(java.util.Collection<JobId> jobs, String state) {
        List<String> ids = jobs.stream().map(JobId::toString).toList();
        // One positional parameter per id: a list bound to one parameter is Hibernate's extension, not JPA's.
        String in = java.util.stream.IntStream.rangeClosed(1, ids.size()).mapToObj(i -> "?" + i)
                .collect(java.util.stream.Collectors.joining(", "));
        var count = em.createNativeQuery("SELECT COUNT(*) FROM jobqueue_job WHERE id IN (" + in + ")"
                + (state == null ? "" : " AND state = ?" + (ids.size() + 1)));
        for (int i = 0; i < ids.size(); i++) {
            count.setParameter(i + 1, ids.get(i));
        }
        if (state != null) {
            count.setParameter(ids.size() + 1, state);
        }
        return ((Number) count.getSingleResult()).longValue();
    }

    /** The job's state and last error, or null if there is no row. */
    public String[] stateAndError(JobId id) {
        List<?> rows = em.createNativeQuery("SELECT state, last_error FROM jobqueue_job WHERE id = ?1")
                .setParameter(1, id.toString()).getResultList();
        if (rows.isEmpty()) {
            return null;
        }
        Object[] row = (Object[]) rows.get(0);
        return new String[] {(String) row[0], text(row[1])};
    }

    public String state(JobId id) {
        String[] row = stateAndError(id);
        return row == null ? null : row[0];
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
