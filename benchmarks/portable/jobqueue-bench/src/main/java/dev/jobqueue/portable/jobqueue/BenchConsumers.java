package dev.jobqueue.portable.jobqueue;

import dev.jobqueue.Consumer;
import dev.jobqueue.portable.kit.BenchJob;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

/**
 * The harness's jobs, one consumer per {@link Variant}; the launcher enables only its variant's queue. A
 * transactional job counts as completed when its transaction commits, a non-transactional one when it returns.
 */
@ApplicationScoped
public class BenchConsumers {

    static final String TRANSACTIONAL = "bench-tx";
    static final String GROUPED = "bench-jpt";
    static final String NON_TRANSACTIONAL = "bench-nontx";

    @Inject
    HarnessAdapter adapter;

    @Resource
    TransactionSynchronizationRegistry transactions;

    /** The default consumer. */
    @Consumer(queue = TRANSACTIONAL)
    public void transactional(BenchJob job) {
        adapter.work(job);
        countAtCommit();
    }

    /** The default consumer with up to ten jobs in one transaction. */
    @Consumer(queue = GROUPED, jobsPerTransaction = 10)
    public void grouped(BenchJob job) {
        adapter.work(job);
        countAtCommit();
    }

    /** Outside the completion's transaction. */
    @Consumer(queue = NON_TRANSACTIONAL, transactional = false)
    public void nonTransactional(BenchJob job) {
        adapter.work(job);
        adapter.completed();
    }

    private void countAtCommit() {
        transactions.registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {
                // nothing to do before
            }

            @Override
            public void afterCompletion(int status) {
                if (status == Status.STATUS_COMMITTED) {
                    adapter.completed();
                }
            }
        });
    }
}
