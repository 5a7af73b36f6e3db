package dev.jobqueue.it.plan;

import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.Arrays;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.stream.Collectors;

/** Fills the job table with a large history and asks the database how it would claim. */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class ClaimPlan {

    /** The claim query's shape, as ClaimStore issues it, for the queue "plan". */
    static final String CLAIM = """
            SELECT j.id FROM jobqueue_job j
            WHERE j.queue = 'plan' AND j.state = 'PENDING' AND j.run_at <= CURRENT_TIMESTAMP AND j.attempts <= 2147483647
                AND NOT EXISTS (SELECT 1 FROM jobqueue_queue q WHERE q.name = 'plan'
                    AND (q.paused = TRUE OR q.paused_until > CURRENT_TIMESTAMP))
                AND (j.ordering_key IS NULL OR NOT EXISTS (SELECT 1 FROM jobqueue_job o WHERE o.queue = 'plan'
                    AND o.ordering_key = j.ordering_key AND o.seq < j.seq AND o.state IN ('PENDING', 'RUNNING', 'WAITING')))
            ORDER BY j.priority DESC, j.run_at, j.seq
            LIMIT 64 FOR UPDATE SKIP LOCKED""";
    /** The claim from a start (ClaimStart): one priority, due at a time or later. */
    static final String CLAIM_FROM_START = CLAIM.replace("ORDER BY",
            "AND j.priority = 0 AND j.run_at >= TIMESTAMP '2000-01-01 00:00:00'\n            ORDER BY");

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

    public String database() {
        return withConnection(c -> c.getMetaData().getDatabaseProductName());
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
     * VACUUM cannot run in a transaction. VACUUM marks a page all-visible only when no open transaction is older
     * than the rows on it, and the planner prices an index-only scan by the pages that are; so while one of the
     * server's own short transactions overlaps, this waits and vacuums again, and returns how many rounds it took.
     *
     * @throws IllegalStateException if the table is still not all-visible after 20 rounds, naming what is open
     */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public int vacuumPostgres() {
        return withConnection(connection -> {
            try (var statement = connection.createStatement()) {
                for (int round = 1; round <= 20; round++) {
                    statement.execute("VACUUM ANALYZE jobqueue_job");
                    try (var pages = statement.executeQuery(
                            "SELECT relallvisible, relpages FROM pg_class WHERE relname = 'jobqueue_job'")) {
                        pages.next();
                        if (pages.getLong(1) >= pages.getLong(2) * 99 / 100) {
                            return round;
                        }
                    }
                    try {
                        Thread.sleep(500);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                }
                StringBuilder open = new StringBuilder();
                try (var activity = statement.executeQuery("""
                        SELECT pid, state, xact_start, LEFT(query, 80) FROM pg_stat_activity
                        WHERE backend_xmin IS NOT NULL AND pid <> pg_backend_pid()
                        UNION ALL SELECT NULL, 'prepared ' || gid, prepared, NULL FROM pg_prepared_xacts""")) {
                    while (activity.next()) {
                        open.append('\n').append(activity.getString(1)).append(' ').append(activity.getString(2))
                                .append(' ').append(activity.getString(3)).append(' ').append(activity.getString(4));
                    }
                }
                throw new IllegalStateException("VACUUM left part of jobqueue_job not all-visible after 20 rounds;"
                        + " transactions holding the horizon back:" + open);
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

    /** The plan of the claim query from a start, one line per row of EXPLAIN's output. */
    public String explainClaimFromStart() {
        return explain(CLAIM_FROM_START);
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

    /**
     * PostgreSQL's generic plan of the finish of one job, as {@code FinishStore} prepares it: the job found by its
     * id and lease token, RUNNING and without dependents. A statement the driver has run five times gets the generic
     * plan, which cannot see the parameters' values.
     */
    public String explainFinishPostgres() {
        return withConnection(connection -> {
            try (var statement = connection.createStatement()) {
                statement.execute("SET plan_cache_mode = force_generic_plan");
                statement.execute("PREPARE plan_finish(text, text) AS UPDATE jobqueue_job SET state = 'DONE',"
                        + " lease_token = NULL, lease_expires_at = NULL"
                        + " WHERE id = $1 AND lease_token = $2 AND state = 'RUNNING' AND has_dependents = FALSE");
                try (var plan = statement.executeQuery("EXPLAIN EXECUTE plan_finish('plan-1', 'token')")) {
                    StringBuilder lines = new StringBuilder();
                    while (plan.next()) {
                        lines.append(plan.getString(1)).append('\n');
                    }
                    return lines.toString();
                } finally {
                    statement.execute("DEALLOCATE plan_finish");
                    statement.execute("RESET plan_cache_mode");
                }
            }
        });
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
