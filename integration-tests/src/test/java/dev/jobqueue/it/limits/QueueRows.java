package dev.jobqueue.it.limits;

import dev.jobqueue.JobId;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Reads job rows and writes a queue's row of jobqueue_queue through plain SQL, as an operator's mistake would. */
@Stateless
public class QueueRows {

    @PersistenceContext(unitName = "app")
    EntityManager em;

    public int attempts(JobId id) {
        return ((Number) em.createNativeQuery("SELECT attempts FROM jobqueue_job WHERE id = ?1")
                .setParameter(1, id.toString()).getSingleResult()).intValue();
    }

    public String state(JobId id) {
        return (String) em.createNativeQuery("SELECT state FROM jobqueue_job WHERE id = ?1")
                .setParameter(1, id.toString()).getSingleResult();
    }

    /**
     * When each of the queue's jobs whose payload contains {@code text} started, in epoch milliseconds, sorted;
     * only their differences matter.
     */
    public List<Long> startedAt(String queue, String text) {
        List<?> rows = em.createNativeQuery("SELECT started_at FROM jobqueue_job WHERE queue = ?1"
                + " AND started_at IS NOT NULL AND payload LIKE ?2").setParameter(1, queue)
                .setParameter(2, "%" + text + "%").getResultList();
        return rows.stream().map(QueueRows::millis).sorted().toList();
    }

    /** A timestamp as the JPA provider returns it for the database at hand. */
    private static long millis(Object value) {
        if (value instanceof java.sql.Timestamp timestamp) {
            return timestamp.getTime();
        }
        if (value instanceof java.time.OffsetDateTime offset) {
            return offset.toInstant().toEpochMilli();
        }
        if (value instanceof java.time.ZonedDateTime zoned) {
            return zoned.toInstant().toEpochMilli();
        }
        if (value instanceof java.time.Instant instant) {
            return instant.toEpochMilli();
        }
        if (value instanceof java.time.LocalDateTime local) {
            return local.toInstant(java.time.ZoneOffset.UTC).toEpochMilli();
        }
        throw new IllegalStateException("a timestamp of type " + value.getClass());
    }

    /**
     * Makes the queue's row anew in a transaction of its own (deletes it, as a resume does, and inserts it, as another
     * node's claim does), counts {@code made} down, and commits only once {@code commit} is counted down (at most a
     * minute later).
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void makeRowAndCommitLater(String queue, CountDownLatch made, CountDownLatch commit)
            throws InterruptedException {
        em.createNativeQuery("DELETE FROM jobqueue_queue WHERE name = ?1").setParameter(1, queue).executeUpdate();
        em.createNativeQuery("INSERT INTO jobqueue_queue (name, paused, updated_at) VALUES (?1, FALSE,"
                + " CURRENT_TIMESTAMP)").setParameter(1, queue).executeUpdate();
        made.countDown();
        commit.await(1, TimeUnit.MINUTES);
    }

    /** Whether the queue's row says it is paused; null without a row. */
    public Boolean paused(String queue) {
        List<?> rows = em.createNativeQuery("SELECT paused FROM jobqueue_queue WHERE name = ?1").setParameter(1, queue)
                .getResultList();
        return rows.isEmpty() ? null : Boolean.valueOf(String.valueOf(rows.get(0)).equals("true")
                || String.valueOf(rows.get(0)).equals("1"));
    }

    /** Writes unreadable values into the queue's override and window, as a hand-made SQL update could. */
    public void corrupt(String queue, String rateLimit, String startWindow) {
        em.createNativeQuery("UPDATE jobqueue_queue SET rate_limit = ?1, start_window = ?2 WHERE name = ?3")
                .setParameter(1, rateLimit).setParameter(2, startWindow).setParameter(3, queue).executeUpdate();
    }

    /** The queue's rate_limit override and start_window. */
    public List<String> overrideAndWindow(String queue) {
        Object[] row = (Object[]) em.createNativeQuery(
                "SELECT rate_limit, start_window FROM jobqueue_queue WHERE name = ?1").setParameter(1, queue)
                .getSingleResult();
        return java.util.Arrays.asList((String) row[0], (String) row[1]);
    }
}
