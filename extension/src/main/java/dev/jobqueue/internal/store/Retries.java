package dev.jobqueue.internal.store;

import static dev.jobqueue.internal.store.Database.placeholders;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The one place that makes FAILED jobs PENDING again, for every path an operator has: one job, jobs by id, every
 * match of a filter, a queue's failed jobs. A job gets a fresh set of attempts, and becomes WAITING instead if a
 * job it waits for is unfinished. It is passed over if a job it waits for is FAILED, since it would wait for ever,
 * or if another unfinished job now holds its dedupe key.
 *
 * <p>The jobs the given ones wait for are locked first, as a finishing job locks itself before the jobs that wait
 * for it: a dependency that fails at the same moment either commits first, and the retry sees it FAILED, or
 * waits for the retry, and then sees its dependent WAITING and fails it in turn. This relies on READ COMMITTED.
 */
@ApplicationScoped
public class Retries {

    @Inject
    TransactionalJdbc jdbc;

    /** Retries the FAILED jobs among {@code ids}, in the caller's transaction. */
    @Transactional(TxType.MANDATORY)
    public RetryOutcome retryAmong(Collection<String> ids, Instant now) {
        if (ids.isEmpty()) {
            return RetryOutcome.NONE;
        }
        lockDependencies(ids);
        // A job and the job it waits for, both FAILED and both given: the first pass retries the one it waits for,
        // the next pass the job itself, which then waits. Each pass retries at least one job, or it is the last.
        int retried = 0;
        int pass;
        do {
            pass = retryQuery(ids, now);
            retried += pass;
        } while (pass > 0 && retried < ids.size());
        List<Integer> passedOver = jdbc.query("""
                SELECT CASE WHEN EXISTS (SELECT 1 FROM jobqueue_job_dependency d JOIN jobqueue_job p ON p.id = d.depends_on
                    WHERE d.job_id = j.id AND p.state = 'FAILED') THEN 1 ELSE 0 END
                FROM jobqueue_job j WHERE j.id IN (""" + placeholders(ids.size()) + ") AND j.state = 'FAILED'",
                (row, db) -> row.getInt(1), ids);
        int dependencyFailed = (int) passedOver.stream().filter(flag -> flag == 1).count();
        int dedupeKeyHeld = passedOver.size() - dependencyFailed;
        return new RetryOutcome(retried, dependencyFailed, dedupeKeyHeld,
                ids.size() - retried - passedOver.size());
    }

    /** A FAILED job that {@code id} waits for, if there is one: the reason a retry passed it over. */
    @Transactional(TxType.MANDATORY)
    public Optional<String> failedDependency(String id) {
        return jdbc.query("""
                SELECT p.id FROM jobqueue_job_dependency d JOIN jobqueue_job p ON p.id = d.depends_on
                WHERE d.job_id = ? AND p.state = 'FAILED' ORDER BY p.id LIMIT 1""", (row, db) -> row.getString(1), id)
                .stream().findFirst();
    }

    private void lockDependencies(Collection<String> ids) {
        jdbc.query("""
                SELECT id FROM jobqueue_job
                WHERE id IN (SELECT depends_on FROM jobqueue_job_dependency WHERE job_id IN ("""
                + placeholders(ids.size()) + ")) ORDER BY id FOR UPDATE", (row, db) -> row.getString(1), ids);
    }

    private int retryQuery(Collection<String> ids, Instant now) {
        return jdbc.update("""
                UPDATE jobqueue_job SET attempts = 0, run_at = ?, finished_at = NULL,
                    state = CASE WHEN EXISTS (SELECT 1 FROM jobqueue_job_dependency d
                        JOIN jobqueue_job p ON p.id = d.depends_on
                        WHERE d.job_id = jobqueue_job.id AND p.state <> 'DONE') THEN 'WAITING' ELSE 'PENDING' END
                WHERE id IN (""" + placeholders(ids.size()) + """
                ) AND state = 'FAILED'
                    AND NOT EXISTS (SELECT 1 FROM jobqueue_job_dependency d JOIN jobqueue_job p ON p.id = d.depends_on
                        WHERE d.job_id = jobqueue_job.id AND p.state = 'FAILED')
                    AND (dedupe_key IS NULL OR NOT EXISTS (SELECT 1 FROM jobqueue_job h
                        WHERE h.queue = jobqueue_job.queue AND h.dedupe_key = jobqueue_job.dedupe_key
                            AND h.state IN ('PENDING', 'RUNNING', 'WAITING')))""", now, ids);
    }
}
