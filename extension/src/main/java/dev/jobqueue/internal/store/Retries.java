package dev.jobqueue.internal.store;

import static dev.jobqueue.internal.store.Database.placeholders;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The one place that makes FAILED and CANCELLED jobs PENDING again, for every path an operator has: one job, jobs
 * by id, every match of a filter, a queue's failed jobs. Below, FAILED stands for both. A job gets a fresh set of attempts, and becomes WAITING instead if a
 * job it waits for is unfinished. It is passed over if a job it waits for is FAILED, since it would wait for ever,
 * or if another unfinished job now holds its dedupe key. Of the FAILED jobs given that share a queue and a dedupe
 * key, one is retried, the oldest that no FAILED job outside the selection keeps waiting, and the others are passed
 * over as their key is then held: the oldest, since a job can wait only for older ones, so the one retried is never
 * a child of another it passes over.
 *
 * <p>The jobs the given ones wait for are locked first, as a finishing job locks itself before the jobs that wait
 * for it: a dependency that fails at the same moment either commits first, and the retry sees it FAILED, or
 * waits for the retry, and then sees its dependent WAITING and fails it in turn. This relies on READ COMMITTED.
 */
@ApplicationScoped
public class Retries {

    static final int MAX_RUNS = 50;

    @Inject
    TransactionalJdbc jdbc;

    /** Retries the FAILED jobs among {@code ids}, in the caller's transaction. */
    @Transactional(TxType.MANDATORY)
    public RetryOutcome retryAmong(Collection<String> ids, Instant now) {
        if (ids.isEmpty()) {
            return RetryOutcome.NONE;
        }
        lockDependencies(ids);
        List<String> candidates = oneForEachKey(ids);
        // A job and the job it waits for, both FAILED and both given: the first pass retries the one it waits for,
        // the next pass the job itself, which then waits. Each pass retries at least one job, or it is the last.
        int retried = 0;
        int pass;
        do {
            pass = candidates.isEmpty() ? 0 : retryQuery(candidates, now);
            retried += pass;
        } while (pass > 0 && retried < candidates.size());
        List<Integer> passedOver = jdbc.query("""
                SELECT CASE WHEN EXISTS (SELECT 1 FROM jobqueue_job_dependency d JOIN jobqueue_job p ON p.id = d.depends_on
                    WHERE d.job_id = j.id AND p.state IN ('FAILED', 'CANCELLED')) THEN 1 ELSE 0 END
                FROM jobqueue_job j WHERE j.id IN (""" + placeholders(ids.size())
                        + ") AND j.state IN ('FAILED', 'CANCELLED')",
                (row, db) -> row.getInt(1), ids);
        int dependencyFailed = (int) passedOver.stream().filter(flag -> flag == 1).count();
        int dedupeKeyHeld = passedOver.size() - dependencyFailed;
        return new RetryOutcome(retried, dependencyFailed, dedupeKeyHeld,
                ids.size() - retried - passedOver.size());
    }

    /**
     * Runs a retry of a selection that goes by chunks ({@code run}) again while its last run both retried jobs and
     * passed others over for a FAILED job they wait for: a job and the job it waits for can fall in different chunks,
     * and the retry of the one that comes later frees the other for the next run. A run looks only at the jobs still
     * FAILED, so each job is counted once, and the jobs passed over are those the last run passed over. At most
     * {@value #MAX_RUNS} runs, so that jobs that fail again as fast as they are retried cannot keep it going.
     */
    public static RetryOutcome inRuns(Supplier<RetryOutcome> run) {
        RetryOutcome last = run.get();
        int retried = last.retried();
        int notFailed = last.notFailed();
        for (int runs = 1; runs < MAX_RUNS && last.retried() > 0 && last.dependencyFailed() > 0; runs++) {
            last = run.get();
            retried += last.retried();
            notFailed += last.notFailed();
        }
        return new RetryOutcome(retried, last.dependencyFailed(), last.dedupeKeyHeld(), notFailed);
    }

    /** A FAILED job that {@code id} waits for, if there is one: the reason a retry passed it over. */
    @Transactional(TxType.MANDATORY)
    public Optional<String> failedDependency(String id) {
        return jdbc.query("""
                SELECT p.id FROM jobqueue_job_dependency d JOIN jobqueue_job p ON p.id = d.depends_on
                WHERE d.job_id = ? AND p.state IN ('FAILED', 'CANCELLED') ORDER BY p.id LIMIT 1""",
                (row, db) -> row.getString(1), id)
                .stream().findFirst();
    }

    /**
     * {@code ids} without the FAILED jobs whose queue and dedupe key an older FAILED job among them has, unless that
     * one waits for a FAILED job that is not among them, which would keep it from being retried: retried together,
     * two would hold one key, and the unique index would refuse the retry whole.
     */
    private List<String> oneForEachKey(Collection<String> ids) {
        if (ids.size() == 1) {
            return List.copyOf(ids);
        }
        String among = placeholders(ids.size());
        List<KeyedJob> keyed = jdbc.query("SELECT j.id, j.queue, j.dedupe_key, CASE WHEN EXISTS (SELECT 1"
                + " FROM jobqueue_job_dependency d JOIN jobqueue_job p ON p.id = d.depends_on WHERE d.job_id = j.id"
                + " AND p.state IN ('FAILED', 'CANCELLED') AND p.id NOT IN (" + among + ")) THEN 1 ELSE 0 END"
                + " FROM jobqueue_job j WHERE j.id IN (" + among + ") AND j.state IN ('FAILED', 'CANCELLED')"
                + " AND j.dedupe_key IS NOT NULL ORDER BY j.seq",
                (row, db) -> new KeyedJob(row.getString(1), row.getString(2) + '\n' + row.getString(3),
                        row.getInt(4) == 1), ids, ids);
        Map<String, String> chosen = new HashMap<>();
        keyed.stream().filter(job -> !job.stuck()).forEach(job -> chosen.putIfAbsent(job.key(), job.id()));
        keyed.forEach(job -> chosen.putIfAbsent(job.key(), job.id()));
        Set<String> passedOver = new HashSet<>();
        keyed.stream().filter(job -> !job.id().equals(chosen.get(job.key()))).forEach(job -> passedOver.add(job.id()));
        return ids.stream().filter(id -> !passedOver.contains(id)).toList();
    }

    /**
     * A FAILED job with a dedupe key.
     *
     * @param key   its queue and dedupe key
     * @param stuck whether it waits for a FAILED job outside the selection, which no retry of it can free
     */
    private record KeyedJob(String id, String key, boolean stuck) {
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
                ) AND state IN ('FAILED', 'CANCELLED')
                    AND NOT EXISTS (SELECT 1 FROM jobqueue_job_dependency d JOIN jobqueue_job p ON p.id = d.depends_on
                        WHERE d.job_id = jobqueue_job.id AND p.state IN ('FAILED', 'CANCELLED'))
                    AND (dedupe_key IS NULL OR NOT EXISTS (SELECT 1 FROM jobqueue_job h
                        WHERE h.queue = jobqueue_job.queue AND h.dedupe_key = jobqueue_job.dedupe_key
                            AND h.state IN ('PENDING', 'RUNNING', 'WAITING')))""", now, ids);
    }
}
