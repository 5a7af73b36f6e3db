package dev.jobqueue.internal.enqueue;

import dev.jobqueue.internal.dispatch.Dispatcher;
import dev.jobqueue.internal.metrics.JobMetrics;
import dev.jobqueue.internal.store.JobRow;
import dev.jobqueue.internal.store.JobStore;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;

/** Writes a job row in the caller's transaction, or in a new one, and wakes the poller after commit. */
@ApplicationScoped
public class JobWriter {

    @Inject
    JobStore store;

    @Inject
    Dispatcher dispatcher;

    @Inject
    JobMetrics metrics;

    @Resource
    TransactionSynchronizationRegistry transactions;

    @Transactional(TxType.REQUIRED)
    public void write(JobRow row) {
        store.insert(row);
        WakeAfterCommit.register(transactions, row.getQueue(), dispatcher::wake, metrics::enqueued);
    }
}
