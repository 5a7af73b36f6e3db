package dev.jobqueue.internal.store;

import static dev.jobqueue.internal.store.Database.placeholders;

import dev.jobqueue.internal.Messages;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What finishing a job means for the jobs that wait for it, in the finishing transaction. The waiting jobs are
 * locked before the other jobs they wait for are read, so of two jobs finishing at once, the second to commit
 * sees the first as DONE and releases the job that waits for both. This relies on READ COMMITTED.
 */
@ApplicationScoped
public class Dependencies {

    @Inject
    TransactionalJdbc jdbc;

    /**
     * Makes PENDING every WAITING job that waited for {@code id} and now waits for no unfinished job.
     *
     * @return the queues of the released jobs
     */
    @Transactional(TxType.MANDATORY)
    public Set<String> release(String id) {
        return release(List.of(id));
    }

    /**
     * Makes PENDING every WAITING job that waited for one of {@code ids}, DONE or deleted, and now waits for no
     * unfinished job.
     *
     * @return the queues of the released jobs
     */
    @Transactional(TxType.MANDATORY)
    public Set<String> release(Collection<String> ids) {
        List<String> waiting = lockWaitingDependents(ids).stream().map(WaitingJob::id).toList();
        if (waiting.isEmpty()) {
            return Set.of();
        }
        Set<String> ready = new HashSet<>(waiting);
        List<String> blocked = jdbc.query("""
                SELECT DISTINCT d.job_id FROM jobqueue_job_dependency d JOIN jobqueue_job j ON j.id = d.depends_on
                WHERE d.job_id IN (""" + placeholders(waiting.size()) + ") AND j.state <> 'DONE'",
                (row, db) -> row.getString(1), waiting);
        blocked.forEach(ready::remove);
        if (ready.isEmpty()) {
            return Set.of();
        }
        jdbc.update("UPDATE jobqueue_job SET state = 'PENDING' WHERE id IN (" + placeholders(ready.size())
                + ") AND state = 'WAITING'", ready);
        List<String> queues = jdbc.query("SELECT DISTINCT queue FROM jobqueue_job WHERE id IN ("
                + placeholders(ready.size()) + ")", (row, db) -> row.getString(1), ready);
        return Set.copyOf(queues);
    }

    /**
     * Makes FAILED every WAITING job that waited for {@code id}, now FAILED, and the jobs that waited for those,
     * naming {@code id} as the reason.
     *
     * @return the jobs that failed
     */
    @Transactional(TxType.MANDATORY)
    public List<FailedDependent> failDependents(String id, Instant now) {
        return failDependents(id, now, Messages.dependencyFailed(id));
    }

    /**
     * Makes FAILED every WAITING job that waited for {@code id}, which did not end DONE, and the jobs that waited
     * for those, with {@code reason}.
     *
     * @return the jobs that failed
     */
    @Transactional(TxType.MANDATORY)
    public List<FailedDependent> failDependents(String id, Instant now, String reason) {
        List<FailedDependent> failed = new ArrayList<>();
        List<String> frontier = List.of(id);
        while (!frontier.isEmpty()) {
            List<WaitingJob> dependents = lockWaitingDependents(frontier);
            List<String> ids = dependents.stream().map(WaitingJob::id).toList();
            if (!ids.isEmpty()) {
                jdbc.update("UPDATE jobqueue_job SET state = 'FAILED', finished_at = ?, last_error = ? WHERE id IN ("
                        + placeholders(ids.size()) + ") AND state = 'WAITING'", now, reason, ids);
                dependents.forEach(job -> failed.add(new FailedDependent(job.id(), job.queue(), job.group(), reason)));
            }
            frontier = ids;
        }
        return failed;
    }

    /** A WAITING job, locked. */
    private record WaitingJob(String id, String queue, String group) {
    }

    private List<WaitingJob> lockWaitingDependents(Collection<String> ids) {
        return jdbc.query("""
                SELECT id, queue, group_name FROM jobqueue_job
                WHERE state = 'WAITING' AND id IN (SELECT job_id FROM jobqueue_job_dependency WHERE depends_on IN ("""
                + placeholders(ids.size()) + ")) ORDER BY id FOR UPDATE",
                (row, db) -> new WaitingJob(row.getString(1), row.getString(2), row.getString(3)), ids);
    }
}
