package dev.jobqueue.internal.store;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Finishes attempts (DONE, a retry later, or FAILED), each fenced by the attempt's lease token, so that a worker
 * that lost its lease cannot change a job another node has taken over.
 */
public interface FinishStore {

    /**
     * Marks the job DONE, or deletes it when DONE jobs are not retained, in the caller's transaction or a new
     * one, and releases the jobs that wait for it. Empty if this worker no longer holds the lease.
     */
    Optional<Finish> complete(ClaimedJob job, Instant now, boolean retain);

    /**
     * Marks many jobs DONE, or deletes them when DONE jobs are not retained, in one new transaction: a statement
     * per claim (lease token) rather than a transaction per job. Jobs that others wait for are left to
     * {@link #complete}, which releases them; so are jobs whose lease this node lost, which it reports.
     *
     * @return the jobs not finished here, for {@link #complete} one by one
     */
    List<ClaimedJob> completeAll(List<ClaimedJob> jobs, Instant now, boolean retain);

    /** Makes the job PENDING again at {@code runAt}, keeping the error; false if the lease was lost. */
    boolean retryLater(String id, String leaseToken, int attempt, Instant now, Instant runAt, String error);

    /**
     * Gives the job up: it becomes FAILED and keeps the error, and so do the jobs that wait for it. Empty if the
     * lease was lost.
     */
    Optional<Finish> fail(ClaimedJob job, Instant now, String error);

    /**
     * Makes the job PENDING again at {@code runAt} with its attempt not counted, and pauses its queue on every node
     * until then, unless a longer pause is in force: its consumer was told to back off. False, with nothing
     * written, if the lease was lost.
     *
     * @param now the database's time, as the row records a pause
     */
    boolean backOff(ClaimedJob job, Instant runAt, Instant now);
}
