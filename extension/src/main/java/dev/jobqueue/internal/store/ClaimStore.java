package dev.jobqueue.internal.store;

import dev.jobqueue.internal.config.QueueLimits;
import java.time.Instant;
import java.util.List;

/**
 * Claims due jobs for a queue's worker: the engine's first transition, PENDING to RUNNING under a lease.
 */
public interface ClaimStore {

    /**
     * Claims up to {@code limit} due jobs of {@code queue}, highest priority first, then oldest first, skipping
     * rows other claimers hold locked, and marks them RUNNING under {@code leaseToken}, held by {@code node},
     * counting the attempt.
     * A job with an ordering key is claimed only when no older job of its key is unfinished. It reads through
     * the partial index on PENDING rows (the state is a literal so that a generic plan can use it). Commits
     * before it returns. Plain JDBC, one statement on PostgreSQL and two elsewhere, whatever the batch size.
     *
     * @param includeRetries false to claim only first attempts, while the queue's consumer is failing
     * @param start          where to start reading the due jobs, or null for the first of them; MariaDB reads
     *                       from the first always (see {@code Database.claimsFromAPlace})
     */
    List<ClaimedJob> claim(String queue, int limit, String leaseToken, String node, Instant now,
            Instant leaseExpiresAt, boolean includeRetries, ClaimStart start);

    /**
     * Claims as {@link #claim} does, but no more than the queue's cluster-wide limits allow: the rate limit's
     * window of starts and the RUNNING jobs of all nodes under {@code max-running}, with an admin's overrides of
     * {@code configured} applied; nothing while the queue is paused. Claims of the queue take turns on all nodes.
     *
     * @param ahead    how many of the {@code limit} jobs start at once, and how soon the others would
     * @param now      the time due jobs are claimed at, as {@link #claim} takes it
     * @param limitNow the database's time, as the limits and starts are measured
     */
    LimitedClaim claimWithinLimits(String queue, QueueLimits configured, int limit, ClaimAhead ahead,
            String leaseToken, String node, Instant now, Instant limitNow, Instant leaseExpiresAt,
            boolean includeRetries, ClaimStart start);
}
