package dev.jobqueue.bench;

import dev.jobqueue.Consumer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** No-op consumers, as in the peer measurements. */
@ApplicationScoped
public class BenchConsumers {

    @Inject
    Progress progress;

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
}
