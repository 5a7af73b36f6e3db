package dev.jobqueue;

import java.util.Collection;
import java.util.List;

/**
 * Puts jobs on named queues. Inject it with {@code @Inject JobQueue jobs;} into any CDI bean or EJB.
 *
 * <p>A put joins the caller's JTA transaction, so the job exists if and only if that transaction
 * commits: this is the transactional outbox guarantee. Without an active transaction the put runs
 * in a transaction of its own. A job put on this node starts as soon as the transaction commits,
 * without waiting for the next poll.
 */
public interface JobQueue {

    /**
     * Enqueues {@code payload} for the consumer of {@code queue}.
     *
     * @param queue   the queue name, matching {@code [a-z0-9][a-z0-9._-]*}
     * @param payload any object that JSON-B can serialise; it is deserialised into the consumer's
     *                declared parameter type
     * @return the id of the new job
     * @throws InvalidPayloadException if the payload is null, cannot be serialised, or its JSON is larger than
     *                                 the queue's {@code max-payload-size} (1 MiB by default); nothing is
     *                                 written in that case, and the caller's transaction is not marked for
     *                                 rollback
     * @throws IllegalArgumentException if the queue name is not valid
     */
    JobId put(String queue, Object payload);

    /**
     * Enqueues {@code payload} for the consumer of {@code queue}, with options: when it is due, its priority, a
     * dedupe key, the jobs it waits for, an ordering key and a group.
     *
     * @return the id of the new job or, when the dedupe key is held and the policy is IGNORE or REPLACE, of the
     *         job that holds it
     * @throws DuplicateJobException if the dedupe key is held and the policy rejects the put
     * @throws InvalidPayloadException if the payload is null, cannot be serialised, or is larger than the queue's
     *                                 {@code max-payload-size}
     * @throws IllegalArgumentException if the queue name is not valid
     * @see JobOptions
     */
    JobId put(String queue, Object payload, JobOptions options);

    /**
     * Enqueues every payload with the same options, in one transaction as {@link #put(String, Object, JobOptions)}
     * does, with multi-row inserts instead of one statement per job, and one wake-up after commit.
     *
     * @return the id of each job, in the order of {@code payloads}: of the new job or, when its dedupe key is held
     *         and the policy is IGNORE or REPLACE, of the job that holds it. Jobs that share a dedupe key share its
     *         first job
     * @throws InvalidPayloadException if a payload is null, cannot be serialised or is too large; its message
     *                                 names its index. Nothing is written, and the caller's transaction is not
     *                                 marked for rollback
     * @throws DuplicateJobException if a job's dedupe key is held and the policy rejects it; its message names its
     *                               index. If the call had written jobs before it, the transaction is marked for
     *                               rollback, so that none of the call's jobs is kept
     * @throws IllegalArgumentException if the queue name is not valid, or a payload is a {@link JobRequest}
     */
    List<JobId> putAll(String queue, Collection<?> payloads, JobOptions options);

    /**
     * Enqueues every request with its own options, as {@link #putAll(String, Collection, JobOptions)} does. A
     * request may wait for earlier requests of the same call ({@link JobRequest#after(JobRequest...)}).
     *
     * @return the id of each job, in the order of {@code requests}
     * @throws IllegalArgumentException if the queue name is not valid, a request is in the list twice, or waits
     *                                  for one that is not earlier in it
     */
    List<JobId> putAll(String queue, List<JobRequest> requests);
}
