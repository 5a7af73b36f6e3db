package dev.jobqueue.bench;

import dev.jobqueue.Consumer;
import dev.jobqueue.JobContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

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

    /** Runs outside that transaction. */
    @Consumer(queue = "bench-nontx", transactional = false)
    public void nonTransactional(Integer sequence) {
        progress.finished("bench-nontx");
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
