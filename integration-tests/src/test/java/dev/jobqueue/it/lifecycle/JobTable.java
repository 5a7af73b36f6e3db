package dev.jobqueue.it.lifecycle;

import dev.jobqueue.JobId;
import dev.jobqueue.it.app.PlacedOrder;
import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;

/** Reads and tampers with job rows through plain SQL, as another node or a corrupted row would. */
@Stateless
public class JobTable {

    @PersistenceContext(unitName = "app")
    EntityManager em;

    /** The row's state, attempts, lease token and last error, or null if there is no row. */
    public Object[] row(JobId id) {
        List<?> rows = em.createNativeQuery(
                "SELECT state, attempts, lease_token, last_error FROM jobqueue_job WHERE id = ?1")
                .setParameter(1, id.toString()).getResultList();
        if (rows.isEmpty()) {
            return null;
        }
        Object[] row = (Object[]) rows.get(0);
        row[3] = text(row[3]);
        return row;
    }

    /** H2 returns CLOB columns as java.sql.Clob. */
    private static String text(Object value) {
        try {
            return value instanceof java.sql.Clob clob ? clob.getSubString(1, (int) clob.length()) : (String) value;
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    public String state(JobId id) {
        Object[] row = row(id);
        return row == null ? null : (String) row[0];
    }

    /** Makes the job look claimed by a node that died: RUNNING, a foreign token, a lease that has expired. */
    public void strandOnDeadNode(JobId id) {
        em.createNativeQuery("UPDATE jobqueue_job SET state = 'RUNNING', attempts = 1, lease_token = 'dead-node',"
                + " lease_expires_at = created_at WHERE id = ?1").setParameter(1, id.toString()).executeUpdate();
    }

    /** Gives the job's lease to another node, as a rescue after an expiry would. */
    public void takeOverLease(JobId id) {
        em.createNativeQuery("UPDATE jobqueue_job SET lease_token = 'other-node' WHERE id = ?1")
                .setParameter(1, id.toString()).executeUpdate();
    }

    public void corruptPayload(JobId id, String payload) {
        em.createNativeQuery("UPDATE jobqueue_job SET payload = ?1 WHERE id = ?2")
                .setParameter(1, payload).setParameter(2, id.toString()).executeUpdate();
    }

    public void delete(JobId id) {
        em.createNativeQuery("DELETE FROM jobqueue_job WHERE id = ?1").setParameter(1, id.toString()).executeUpdate();
    }

    public boolean orderExists(String id) {
        return em.find(PlacedOrder.class, id) != null;
    }
}
