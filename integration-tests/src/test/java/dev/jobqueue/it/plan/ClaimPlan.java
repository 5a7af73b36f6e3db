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

    /** The claim query's shape, as JobStore issues it, for the queue "plan". */
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

    /** Inserts {@code finished} DONE and FAILED jobs and {@code pending} PENDING ones on queue "plan". */
    public void fill(String numbers, int finished, int pending) {
        String source = numbers.formatted(finished + pending);
        em.createNativeQuery("""
                INSERT INTO jobqueue_job (id, queue, state, payload, attempts, priority, run_at, created_at, finished_at)
                SELECT CONCAT('plan-', n), 'plan',
                    CASE WHEN n > %d THEN 'PENDING' WHEN MOD(n, 2) = 0 THEN 'DONE' ELSE 'FAILED' END,
                    '{}', 1, 0, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP,
                    CASE WHEN n > %d THEN NULL ELSE CURRENT_TIMESTAMP END
                FROM %s""".formatted(finished, finished, source)).executeUpdate();
    }

    /** Refreshes PostgreSQL's planner statistics. */
    public void analyzePostgres() {
        em.createNativeQuery("ANALYZE jobqueue_job").executeUpdate();
    }

    /** Refreshes MariaDB's index statistics; ANALYZE TABLE commits implicitly, so it cannot run in an XA transaction. */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void analyzeMariaDb() {
        em.createNativeQuery("ANALYZE TABLE jobqueue_job").getResultList();
    }

    /** The plan of the claim query, one line per row of EXPLAIN's output. */
    public String explainClaim() {
        List<?> rows = em.createNativeQuery("EXPLAIN " + CLAIM).getResultList();
        return rows.stream().map(row -> row instanceof Object[] columns
                ? Arrays.stream(columns).map(String::valueOf).collect(Collectors.joining(" | "))
                : String.valueOf(row)).collect(Collectors.joining("\n"));
    }

    public int clear() {
        return em.createNativeQuery("DELETE FROM jobqueue_job WHERE queue = 'plan'").executeUpdate();
    }
}
