package dev.jobqueue.internal.dispatch;

import java.time.Duration;
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

    /**
     * How long the runners would take to start {@code jobs} more, twice over, so that a job claimed ahead of them
     * under a rate limit starts in time; zero until a job has run, which claims none ahead.
     */
    Duration timeToStart(int jobs) {
        long average = averageRunNanos.get();
        return Duration.ofNanos(2 * Math.max(0, jobs) * average / concurrency);
    }

    /** How many jobs the runners start in half of {@code time}: none until a job has run. */
    int startableWithin(Duration time) {
        long average = averageRunNanos.get();
        return average == 0 ? 0 : (int) Math.min(Integer.MAX_VALUE, time.toNanos() * concurrency / (2 * average));
    }

    /** The number of jobs the next claim should take. */
    int claimSize() {
        long average = averageRunNanos.get();
        long size = average == 0 ? concurrency : concurrency * CLAIM_AHEAD_NANOS / average;
        return (int) Math.max(1, Math.min(batchSize, size));
    }
}
