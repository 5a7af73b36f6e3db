package dev.jobqueue.internal.wake;

import dev.jobqueue.internal.JndiNames;
import dev.jobqueue.internal.store.NotifyChannel;
import dev.jobqueue.internal.task.OutageLog;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;

/**
 * Tells the other nodes, once a put's transaction has committed, that its queues have new jobs: PostgreSQL
 * NOTIFY on a connection of its own, after the commit and outside it. So a put never waits for the lock with
 * which PostgreSQL orders the commits of notifying transactions, and puts work under two-phase commit, which
 * PostgreSQL refuses to a transaction that notified. Sends are coalesced: one at a time, at least
 * {@link #MIN_GAP_NANOS} apart, and the queues of the commits in between are gathered for the next, one message
 * per queue. Under a stream of puts, one message then stands for many, and the other nodes claim them together.
 */
@ApplicationScoped
public class WakeBroadcaster {

    private static final Logger LOG = Logger.getLogger(WakeBroadcaster.class.getName());

    /** The shortest time between two sends; the first commit after a quiet spell is sent at once. */
    static final long MIN_GAP_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    @Inject
    NotifyChannel channel;

    @Inject
    WakeMessages messages;

    @Resource(lookup = JndiNames.SCHEDULER)
    ScheduledExecutorService scheduler;

    private final Set<String> pending = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean sending = new AtomicBoolean();
    private volatile long lastSent = System.nanoTime() - MIN_GAP_NANOS;
    private final OutageLog outage = new OutageLog(LOG, "the wake-up sender",
            "leaves other nodes to find new jobs at their next poll");

    /** Jobs on {@code queue} have committed: tell the other nodes soon. Cheap; safe in transaction completion. */
    public void committed(String queue) {
        if (!messages.enabled()) {
            return;
        }
        pending.add(queue);
        startSending();
    }

    private void startSending() {
        if (sending.compareAndSet(false, true)) {
            try {
                long wait = lastSent + MIN_GAP_NANOS - System.nanoTime();
                if (wait > 0) {
                    scheduler.schedule(this::send, wait, TimeUnit.NANOSECONDS);
                } else {
                    scheduler.execute(this::send);
                }
            } catch (RejectedExecutionException stopping) {
                sending.set(false);
            }
        }
    }

    private void send() {
        try {
            List<String> queues = takePending();
            if (!queues.isEmpty()) {
                lastSent = System.nanoTime();
                channel.send(queues.stream().map(messages::of).toList());
                outage.succeeded();
            }
        } catch (RuntimeException e) {
            outage.failed(e);
        } finally {
            sending.set(false);
        }
        // Queues added during this send, or after its take, go in the next one.
        if (!pending.isEmpty()) {
            startSending();
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
