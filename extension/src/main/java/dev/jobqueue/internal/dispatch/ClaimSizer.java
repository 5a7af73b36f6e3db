package dev.jobqueue.internal.dispatch;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How many jobs one claim of a queue takes: about as many as its consumers finish in {@link #CLAIM_AHEAD_NANOS},
 * at least one and at most {@code batch-size}. Fast jobs are claimed in large batches, so that a claim
 * transaction serves many jobs and the buffer outlasts the next claim even when the database is slow to
 * answer; slow jobs one or a few at a time, so that a node does not hold jobs that another node's idle
 * consumers could run. Until a job has run, a claim takes one job per consumer.
 */
final class ClaimSizer {

    static final long CLAIM_AHEAD_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    /** Weight of the newest run in the moving average, as a right shift: 1/8. */
    private static final int NEWEST_WEIGHT_SHIFT = 3;

    private final int concurrency;
    private final int batchSize;
    /** Moving average of how long one job took on a runner, in nanoseconds; 0 until a job has run. */
    private final AtomicLong averageRunNanos = new AtomicLong();

    ClaimSizer(int concurrency, int batchSize) {
        this.concurrency = concurrency;
        this.batchSize = batchSize;
    }

    /** Notes how long a runner spent on one job, its transaction included. */
    void ran(long nanos) {
        long run = Math.max(1, nanos);
        averageRunNanos.accumulateAndGet(run,
                (average, latest) -> average == 0 ? latest : average + ((latest - average) >> NEWEST_WEIGHT_SHIFT));
    }

    /** The number of jobs the next claim should take. */
    int claimSize() {
        long average = averageRunNanos.get();
        long size = average == 0 ? concurrency : concurrency * CLAIM_AHEAD_NANOS / average;
        return (int) Math.max(1, Math.min(batchSize, size));
    }
}
