package dev.jobqueue;

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
}
