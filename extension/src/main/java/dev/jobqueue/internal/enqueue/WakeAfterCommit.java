package dev.jobqueue.internal.enqueue;

import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.function.Consumer;

/**
 * Wakes the local poller of a queue once the transaction that put jobs on it has committed, so the
 * jobs start at once instead of at the next poll. One per queue per transaction, however many puts.
 */
final class WakeAfterCommit implements Synchronization {

    private final String queue;
    private final Consumer<String> wake;

    private WakeAfterCommit(String queue, Consumer<String> wake) {
        this.queue = queue;
        this.wake = wake;
    }

    static void register(TransactionSynchronizationRegistry registry, String queue, Consumer<String> wake) {
        String key = WakeAfterCommit.class.getName() + ":" + queue;
        if (registry.getResource(key) == null) {
            registry.putResource(key, Boolean.TRUE);
            registry.registerInterposedSynchronization(new WakeAfterCommit(queue, wake));
        }
    }

    @Override
    public void beforeCompletion() {
        // nothing to do before the commit
    }

    @Override
    public void afterCompletion(int status) {
        if (status == Status.STATUS_COMMITTED) {
            wake.accept(queue);
        }
    }
}
