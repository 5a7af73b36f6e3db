package dev.jobqueue.it.plan;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.hibernate.Session;

/** Fills the job table with a large history and asks the database how it would claim. */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class ClaimPlan {

    /** The claim query's shape, as ClaimStore issues it, for the queue "plan". */
    static final String CLAIM = """
            SELECT j.id FROM jobqueue_job j
            WHERE j.queue = 'plan' AND j.state = 'PENDING' AND j.run_at <= CURRENT_TIMESTAMP AND j.attempts <= 2147483647
                AND NOT EXISTS (SELECT 1 FROM jobqueue_queue q WHERE q.name = 'plan' AND q.paused = TRUE)
                AND (j.ordering_key IS NULL OR NOT EXISTS (SELECT 1 FROM jobqueue_job o WHERE o.queue = 'plan'
                    AND o.ordering_key = j.ordering_key AND o.seq < j.seq AND o.state IN ('PENDING', 'RUNNING', 'WAITING')))
            ORDER BY j.priority DESC, j.run_at, j.seq
            LIMIT 64 FOR UPDATE SKIP LOCKED""";

    @PersistenceContext(unitName = "app")
    EntityManager em;

    public String database() {
        return em.unwrap(Session.class).doReturningWork(c -> c.getMetaData().getDatabaseProductName());
    }

    /**
     * Inserts {@code finished} DONE and FAILED jobs, then {@code pending} PENDING ones, then {@code waiting}
     * WAITING ones on queue "plan".
     */
    public void fill(String numbers, int finished, int pending, int waiting) {
        String source = numbers.formatted(finished + pending + waiting);
        em.createNativeQuery("""
                INSERT INTO jobqueue_job (id, queue, state, payload, attempts, priority, run_at, created_at, finished_at)
                SELECT CONCAT('plan-', n), 'plan',
                    CASE WHEN n > %d THEN 'WAITING' WHEN n > %d THEN 'PENDING'
                        WHEN MOD(n, 2) = 0 THEN 'DONE' ELSE 'FAILED' END,
                    '{}', 1, 0, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP,
                    CASE WHEN n > %d THEN NULL ELSE CURRENT_TIMESTAMP END
                FROM %s""".formatted(finished + pending, finished, finished, source)).executeUpdate();
    }

    /**
     * Refreshes PostgreSQL's planner statistics and visibility map, as autovacuum would after so many changes;
     * VACUUM cannot run in a transaction.
     */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void vacuumPostgres() {
        em.unwrap(Session.class).doWork(connection -> {
            try (var statement = connection.createStatement()) {
                statement.execute("VACUUM ANALYZE jobqueue_job");
            }
        });
    }

    /** Refreshes MariaDB's index statistics; ANALYZE TABLE commits implicitly, so it cannot run in an XA transaction. */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void analyzeMariaDb() {
        em.createNativeQuery("ANALYZE TABLE jobqueue_job").getResultList();
    }

    /** The plan of the claim query, one line per row of EXPLAIN's output. */
    public String explainClaim() {
        return explain(CLAIM);
    }

    /**
     * The plan of the query that counts the jobs in {@code state} by queue, as {@code AdminStore.count} issues it
     * for the depth gauges and {@code GET /queues}.
     */
    public String explainCount(String state) {
        return explain("SELECT queue, COUNT(*) FROM jobqueue_job WHERE state = '" + state + "' GROUP BY queue");
    }

    /** How long the count of {@code state} took, in milliseconds, and what it found for queue "plan". */
    public String timeCount(String state) {
        long start = System.nanoTime();
        List<?> rows = em.createNativeQuery("SELECT queue, COUNT(*) FROM jobqueue_job WHERE state = '" + state
                + "' GROUP BY queue").getResultList();
        long micros = (System.nanoTime() - start) / 1_000;
        return state + " " + rows.stream().filter(row -> "plan".equals(((Object[]) row)[0]))
                .map(row -> String.valueOf(((Object[]) row)[1])).findFirst().orElse("0")
                + " jobs counted in " + micros / 1000.0 + " ms";
    }

    private String explain(String sql) {
        List<?> rows = em.createNativeQuery("EXPLAIN " + sql).getResultList();
        return rows.stream().map(row -> row instanceof Object[] columns
                ? Arrays.stream(columns).map(String::valueOf).collect(Collectors.joining(" | "))
                : String.valueOf(row)).collect(Collectors.joining("\n"));
    }

    public int clear() {
        return em.createNativeQuery("DELETE FROM jobqueue_job WHERE queue = 'plan'").executeUpdate();
    }
}
