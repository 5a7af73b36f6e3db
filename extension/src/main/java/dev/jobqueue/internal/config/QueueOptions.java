package dev.jobqueue.internal.config;

import java.time.Duration;

/**
 * The resolved options of one queue on this node.
 *
 * @param queue        the queue name
 * @param maxAttempts  attempts before a job gives up and becomes FAILED
 * @param backoff      the wait between attempts
 * @param lease        how long a claim stays valid without renewal
 * @param pollInterval how often the queue is polled for jobs put by other nodes and for retries
 * @param concurrency  how many of the queue's jobs run at once on this node
 * @param batchSize    how many jobs one claim takes at most
 */
public record QueueOptions(String queue, int maxAttempts, Backoff backoff, Duration lease, Duration pollInterval,
        int concurrency, int batchSize) {
}
