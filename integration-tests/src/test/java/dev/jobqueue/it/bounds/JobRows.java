package dev.jobqueue.it.bounds;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

/** Reads and writes job rows with plain SQL, beside jobqueue, as a test needs to. */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class JobRows {

    @PersistenceContext(unitName = "app")
    EntityManager em;

    /** How many jobs the queue has, in any state. */
    public long count(String queue) {
        return ((Number) em.createNativeQuery("SELECT COUNT(*) FROM jobqueue_job WHERE queue = ?1")
                .setParameter(1, queue).getSingleResult()).longValue();
    }

    /** How many rows a native SQL count query returns. */
    public long countSql(String sql, Object... parameters) {
        var query = em.createNativeQuery(sql);
        for (int i = 0; i < parameters.length; i++) {
            query.setParameter(i + 1, parameters[i]);
        }
        return ((Number) query.getSingleResult()).longValue();
    }

    /** Runs a native SQL statement; returns the rows it changed. */
    public int execute(String sql, Object... parameters) {
        var query = em.createNativeQuery(sql);
        for (int i = 0; i < parameters.length; i++) {
            query.setParameter(i + 1, parameters[i]);
        }
        return query.executeUpdate();
    }
}
