package dev.jobqueue.it.plan;

import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Fills the job table with many finished jobs, fast, and watches the database while a bulk operation works on
 * them: it holds a lock on one job, and counts what is left.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class BulkRows {

    /** Jobs per group in {@link #fill}: groups are ranges of jobs, as jobs put together finish together. */
    static final int GROUP_SIZE = 10_000;

    @PersistenceContext(unitName = "app")
    EntityManager em;

    /** The persistence unit's datasource: plain JDBC here is the same on every JPA provider. */
    @Resource(lookup = "java:comp/DefaultDataSource")
    javax.sql.DataSource dataSource;

    /** Work on a connection of the datasource, in the current transaction if there is one. */
    @FunctionalInterface
    interface SqlWork<T> {
        T run(Connection connection) throws SQLException;
    }

    private <T> T withConnection(SqlWork<T> work) {
        try (Connection connection = dataSource.getConnection()) {
            return work.run(connection);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    public boolean postgres() {
        return withConnection(c -> c.getMetaData().getDatabaseProductName())
                .toLowerCase(java.util.Locale.ROOT).contains("postgres");
    }

    /**
     * Inserts {@code count} jobs of {@code queue} in {@code state} (DONE or FAILED) that finished two days ago,
     * each a millisecond apart, in groups of {@value #GROUP_SIZE} named {@code <queue>-<n>}, with their group rows.
     */
    public void fill(String queue, String state, int count) {
        boolean postgres = postgres();
        String numbers = postgres ? "generate_series(1, %d) AS s(n)".formatted(count)
                : "(SELECT seq AS n FROM seq_1_to_%d) s".formatted(count);
        String finished = postgres ? "CURRENT_TIMESTAMP - INTERVAL '2 days' - n * INTERVAL '1 millisecond'"
                : "NOW(6) - INTERVAL 2 DAY - INTERVAL n * 1000 MICROSECOND";
        String group = postgres ? "'%s-' || (n / %d)".formatted(queue, GROUP_SIZE)
                : "CONCAT('%s-', n DIV %d)".formatted(queue, GROUP_SIZE);
        String id = postgres ? "'%s-' || n".formatted(queue) : "CONCAT('%s-', n)".formatted(queue);
        em.createNativeQuery("""
                INSERT INTO jobqueue_job (id, queue, state, payload, attempts, priority, run_at, created_at, finished_at,
                    group_name, last_error)
                SELECT %s, '%s', '%s', '{"n":1}', 1, 0, %s, %s, %s, %s, 'failed in the test'
                FROM %s""".formatted(id, queue, state, finished, finished, finished, group, numbers)).executeUpdate();
        em.createNativeQuery(("INSERT INTO jobqueue_group (name, created_at) SELECT group_name, MIN(created_at)"
                + " FROM jobqueue_job WHERE queue = '%s' GROUP BY group_name").formatted(queue)).executeUpdate();
    }

    /** Refreshes PostgreSQL's planner statistics, as autovacuum would after so many changes. */
    public void analyzePostgres() {
        em.createNativeQuery("ANALYZE jobqueue_job").executeUpdate();
    }

    /** Refreshes MariaDB's index statistics; ANALYZE TABLE commits implicitly, so it runs outside a transaction. */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void analyzeMariaDb() {
        em.createNativeQuery("ANALYZE TABLE jobqueue_job").getResultList();
    }

    public long count(String queue, String state) {
        return ((Number) em.createNativeQuery("SELECT COUNT(*) FROM jobqueue_job WHERE queue = ?1 AND state = ?2")
                .setParameter(1, queue).setParameter(2, state).getSingleResult()).longValue();
    }

    public long groups(String queue) {
        return ((Number) em.createNativeQuery("SELECT COUNT(*) FROM jobqueue_group WHERE name LIKE ?1")
                .setParameter(1, queue + "-%").getSingleResult()).longValue();
    }

    /**
     * Locks the job {@code id} in a transaction of its own, counts {@code locked} down, and holds the lock until
     * {@code release} is counted down (at most three minutes).
     */
    public void holdLock(String id, CountDownLatch locked, CountDownLatch release) throws InterruptedException {
        em.createNativeQuery("SELECT id FROM jobqueue_job WHERE id = ?1 FOR UPDATE").setParameter(1, id)
                .getResultList();
        locked.countDown();
        release.await(3, TimeUnit.MINUTES);
    }

    public int clear(String queue) {
        em.createNativeQuery("DELETE FROM jobqueue_group WHERE name LIKE ?1").setParameter(1, queue + "-%")
                .executeUpdate();
        return em.createNativeQuery("DELETE FROM jobqueue_job WHERE queue = ?1").setParameter(1, queue)
                .executeUpdate();
    }

    /** The states of the queue's jobs, with counts, for a failure message. */
    public List<?> states(String queue) {
        return em.createNativeQuery("SELECT state, COUNT(*) FROM jobqueue_job WHERE queue = ?1 GROUP BY state")
                .setParameter(1, queue).getResultList();
    }
}
