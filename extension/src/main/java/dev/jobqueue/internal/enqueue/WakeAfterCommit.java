package dev.jobqueue.internal.enqueue;

import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.function.Consumer;
import java.util.function.ObjIntConsumer;

/**
 * Wakes the local poller of a queue once the transaction that put jobs on it has committed, so the
 * jobs start at once instead of at the next poll, and counts them as enqueued. One per queue per
 * transaction, however many puts. Jobs that start on this node without a claim ({@link StartAfterCommit})
 * are counted but need no wake-up.
 */
final class WakeAfterCommit implements Synchronization {

    private final String queue;
    private final Consumer<String> wake;
    private final ObjIntConsumer<String> committed;
    private int puts;
    private boolean pending;

    private WakeAfterCommit(String queue, Consumer<String> wake, ObjIntConsumer<String> committed) {
        this.queue = queue;
        this.wake = wake;
        this.committed = committed;
    }

    /**
     * Notes puts of {@code jobs} jobs on {@code queue} in the current transaction.
     *
     * @param pending   whether the puts left their jobs to be claimed, rather than starting them here
     * @param wake      called once with the queue after commit, if a put left a job to be claimed
     * @param committed called once after commit with the queue and how many jobs were put on it
     */
    static void register(TransactionSynchronizationRegistry registry, String queue, boolean pending, int jobs,
            Consumer<String> wake, ObjIntConsumer<String> committed) {
        String key = WakeAfterCommit.class.getName() + ":" + queue;
        WakeAfterCommit existing = (WakeAfterCommit) registry.getResource(key);
        if (existing != null) {
            existing.puts += jobs;
            existing.pending |= pending;
            return;
        }
        WakeAfterCommit created = new WakeAfterCommit(queue, wake, committed);
        created.puts = jobs;
        created.pending = pending;
        registry.putResource(key, created);
        registry.registerInterposedSynchronization(created);
    }

    @Override
    public void beforeCompletion() {
        // nothing to do before the commit
    }

    @Override
    public void afterCompletion(int status) {
        if (status == Status.STATUS_COMMITTED) {
            committed.accept(queue, puts);
            if (pending) {
                wake.accept(queue);
            }
        }
    }
}
