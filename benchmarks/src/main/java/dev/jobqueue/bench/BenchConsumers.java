package dev.jobqueue.bench;

import dev.jobqueue.Consumer;
import dev.jobqueue.JobContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;

/** No-op consumers, as in the peer measurements. */
@ApplicationScoped
public class BenchConsumers {

    @Inject
    Progress progress;

    @Inject
    RetryTimes retryTimes;

    /** The default: runs in the transaction that marks the job DONE. */
    @Consumer(queue = "bench-tx")
    public void transactional(Integer sequence) {
        progress.finished("bench-tx");
    }

    /** The same, with DONE jobs deleted at completion rather than kept for a day. */
    @Consumer(queue = "bench-tx-unretained", retention = "0s")
    public void transactionalUnretained(Integer sequence) {
        progress.finished("bench-tx-unretained");
    }

    /** The default consumer, with up to 10 waiting jobs in one transaction, each in its own call. */
    @Consumer(queue = "bench-tx-grouped", jobsPerTransaction = 10)
    public void transactionalGrouped(Integer sequence) {
        progress.finished("bench-tx-grouped");
    }

    /**
     * The default consumer under a rate limit so high it never holds a job back: what the limit's bookkeeping costs
     * (a lock of the queue's row per claim, claims no larger than the free runners, durable claim commits).
     */
    @Consumer(queue = "bench-tx-limited", rateLimit = "1000000/1s")
    public void transactionalLimited(Integer sequence) {
        progress.finished("bench-tx-limited");
    }

    /** A batch consumer: up to 50 jobs per call, all marked DONE in the call's transaction. */
    @Consumer(queue = "bench-batch", jobsPerCall = 50)
    public void batch(List<Integer> sequences) {
        progress.finished("bench-batch", sequences.size());
    }

    /** Runs outside that transaction. */
    @Consumer(queue = "bench-nontx", transactional = false)
    public void nonTransactional(Integer sequence) {
        progress.finished("bench-nontx");
    }

    /** The scaling measurement's queues: bench-scale-*-N is consumed by nodes 1 to N. */
    @Consumer(queue = "bench-scale-tx-1")
    public void scaleTransactional1(Integer sequence) {
        progress.finished("bench-scale-tx-1");
    }

    @Consumer(queue = "bench-scale-tx-2")
    public void scaleTransactional2(Integer sequence) {
        progress.finished("bench-scale-tx-2");
    }

    @Consumer(queue = "bench-scale-tx-3")
    public void scaleTransactional3(Integer sequence) {
        progress.finished("bench-scale-tx-3");
    }

    @Consumer(queue = "bench-scale-nontx-1", transactional = false)
    public void scaleNonTransactional1(Integer sequence) {
        progress.finished("bench-scale-nontx-1");
    }

    @Consumer(queue = "bench-scale-nontx-2", transactional = false)
    public void scaleNonTransactional2(Integer sequence) {
        progress.finished("bench-scale-nontx-2");
    }

    @Consumer(queue = "bench-scale-nontx-3", transactional = false)
    public void scaleNonTransactional3(Integer sequence) {
        progress.finished("bench-scale-nontx-3");
    }

    /** Notes when it started, for commit-to-start latency. */
    @Consumer(queue = "bench-latency")
    public void latency(Integer sequence) {
        progress.started(sequence, System.nanoTime());
        progress.finished("bench-latency");
    }

    /** On the second node: notes when it started, in microseconds of the wall clock both nodes share. */
    @Consumer(queue = "bench-remote")
    public void remote(Integer sequence) {
        progress.started(sequence, EpochMicros.now());
        progress.finished("bench-remote");
    }

    /** On both nodes: fails each first attempt, then notes when the retry started, for retry lateness. */
    @Consumer(queue = "bench-retry", backoffInitial = "1s", backoffJitter = 0)
    public void retry(Integer sequence, JobContext context) {
        failFirstAttempt(context);
    }

    /** The same on the first node alone. */
    @Consumer(queue = "bench-retry-one-node", backoffInitial = "1s", backoffJitter = 0)
    public void retryOnOneNode(Integer sequence, JobContext context) {
        failFirstAttempt(context);
    }

    private void failFirstAttempt(JobContext context) {
        if (context.attempt() == 1) {
            throw new IllegalStateException(context.queue() + ": failing the first attempt on purpose");
        }
        retryTimes.started(context.id().toString(), EpochMicros.now());
    }
}
