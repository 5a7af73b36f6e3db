package dev.jobqueue.internal.wake;

import dev.jobqueue.internal.JndiNames;
import dev.jobqueue.internal.store.NotifyChannel;
import dev.jobqueue.internal.task.OutageLog;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Logger;

/**
 * Tells the other nodes, once a put's transaction has committed, that its queues have new jobs: PostgreSQL
 * NOTIFY on a connection of its own, after the commit and outside it. So a put never waits for the lock with
 * which PostgreSQL orders the commits of notifying transactions, and puts work under two-phase commit, which
 * PostgreSQL refuses to a transaction that notified.
 *
 * <p>One thread from the server's managed thread factory sends, so a commit only records its queue and, when the
 * sender may be asleep, wakes it. Sends are coalesced: at least {@link #MIN_GAP_NANOS} apart, and the queues of
 * the commits in between are gathered for the next, one message per queue. Under a stream of puts, one message
 * then stands for many, and the other nodes claim them together. The first commit after a quiet spell is sent
 * at once. On a database without NOTIFY the thread ends at its first send, and commits cost nothing more.
 */
@ApplicationScoped
public class WakeBroadcaster {

    private static final Logger LOG = Logger.getLogger(WakeBroadcaster.class.getName());

    /** The shortest time between two sends; the first commit after a quiet spell is sent at once. */
    static final long MIN_GAP_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    private static final long STOP_WAIT_MILLIS = 5_000;

    @Inject
    NotifyChannel channel;

    @Inject
    WakeMessages messages;

    @Resource(lookup = JndiNames.THREAD_FACTORY)
    ManagedThreadFactory threads;

    /**
     * How long the sender sleeps with nothing to send before it looks again, though a commit wakes it: a safety
     * net only.
     */
    long idleNanos = TimeUnit.MILLISECONDS.toNanos(500);

    private final Set<String> pending = ConcurrentHashMap.newKeySet();
    /** Set by the commit that wakes the sender; cleared by the sender before it looks for pending queues. */
    private final AtomicBoolean woken = new AtomicBoolean();
    private volatile Thread sender;
    private volatile boolean stopped;
    private final OutageLog outage = new OutageLog(LOG, "the wake-up sender",
            "leaves other nodes to find new jobs at their next poll");

    /** Starts the sender, unless {@code jobqueue.notify.enabled} is false. */
    public void start() {
        if (!messages.enabled()) {
            return;
        }
        stopped = false;
        Thread started = threads.newThread(this::run);
        started.setName("jobqueue-wake-sender");
        sender = started;
        started.start();
    }

    /** Stops the sender, waiting a few seconds at most for a send under way; commits after this send nothing. */
    public void stop() {
        stopped = true;
        Thread current = sender;
        sender = null;
        if (current != null) {
            LockSupport.unpark(current);
            try {
                current.join(STOP_WAIT_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Jobs on {@code queue} have committed: tell the other nodes soon. Cheap; safe in transaction completion. */
    public void committed(String queue) {
        Thread current = sender;
        if (current == null) {
            return;
        }
        pending.add(queue);
        if (woken.compareAndSet(false, true)) {
            LockSupport.unpark(current);
        }
    }

    private void run() {
        long lastSent = System.nanoTime() - MIN_GAP_NANOS;
        while (!stopped) {
            // Cleared before looking: a commit after the look finds it clear and wakes this thread.
            woken.set(false);
            if (pending.isEmpty()) {
                LockSupport.parkNanos(this, idleNanos);
                continue;
            }
            for (long wait = lastSent + MIN_GAP_NANOS - System.nanoTime(); wait > 0 && !stopped;
                    wait = lastSent + MIN_GAP_NANOS - System.nanoTime()) {
                LockSupport.parkNanos(this, wait);
            }
            List<String> queues = takePending();
            if (queues.isEmpty() || stopped) {
                continue;
            }
            lastSent = System.nanoTime();
            if (!send(queues)) {
                sender = null;
                pending.clear();
                return;
            }
        }
    }

    /** @return false if the database has no NOTIFY */
    private boolean send(List<String> queues) {
        try {
            boolean sent = channel.send(queues.stream().map(messages::of).toList());
            outage.succeeded();
            return sent;
        } catch (RuntimeException e) {
            outage.failed(e);
            return true;
        }
    }

    private List<String> takePending() {
        List<String> taken = new ArrayList<>();
        for (String queue : pending) {
            if (pending.remove(queue)) {
                taken.add(queue);
            }
        }
        return taken;
    }
}
