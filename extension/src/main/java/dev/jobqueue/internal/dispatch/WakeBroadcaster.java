package dev.jobqueue.internal.dispatch;

import dev.jobqueue.internal.store.NotifyChannel;
import dev.jobqueue.internal.store.OutageLog;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;

/**
 * Tells the other nodes, once a put's transaction has committed, that its queues have new jobs: PostgreSQL
 * NOTIFY on a connection of its own, after the commit and outside it. So a put never waits for the lock with
 * which PostgreSQL orders the commits of notifying transactions, and puts work under two-phase commit, which
 * PostgreSQL refuses to a transaction that notified. Sends are coalesced: while one is under way, the queues
 * of later commits are gathered for the next, one message per queue.
 */
@ApplicationScoped
public class WakeBroadcaster {

    private static final Logger LOG = Logger.getLogger(WakeBroadcaster.class.getName());

    @Inject
    NotifyChannel channel;

    @Inject
    WakeMessages messages;

    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    ManagedExecutorService executor;

    private final Set<String> pending = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean sending = new AtomicBoolean();
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
                executor.execute(this::send);
            } catch (RejectedExecutionException stopping) {
                sending.set(false);
            }
        }
    }

    private void send() {
        try {
            List<String> queues;
            while (!(queues = takePending()).isEmpty()) {
                try {
                    channel.send(queues.stream().map(messages::of).toList());
                    outage.succeeded();
                } catch (RuntimeException e) {
                    outage.failed(e);
                }
            }
        } finally {
            sending.set(false);
        }
        // A queue added after the last take, while this task was finishing, needs a task of its own.
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
