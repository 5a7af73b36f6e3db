package dev.jobqueue.internal.dispatch;

import dev.jobqueue.internal.time.LeaseClock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The wake-up of a worker at the time a limit or a backoff lets its next claim take jobs. One is set at a time,
 * the earliest asked for.
 */
final class HeldWake {

    private final ScheduledExecutorService scheduler;
    private final LeaseClock leaseClock;
    private final Runnable wake;
    private ScheduledFuture<?> next;
    private Instant nextAt;

    HeldWake(ScheduledExecutorService scheduler, LeaseClock leaseClock, Runnable wake) {
        this.scheduler = scheduler;
        this.leaseClock = leaseClock;
        this.wake = wake;
    }

    /**
     * Wakes the worker at {@code when} (the database's time, as limits are measured; this node's clock is near
     * enough for a wake-up), unless an earlier wake-up of this kind is due first.
     */
    synchronized void wakeAt(Instant when) {
        Instant now = leaseClock.now();
        if (next != null && !next.isDone() && !nextAt.isAfter(when)) {
            return;
        }
        if (next != null) {
            next.cancel(false);
        }
        long delay = Math.max(1, Duration.between(now, when).toMillis());
        nextAt = when;
        try {
            next = scheduler.schedule(wake, delay, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            next = null;
        }
    }
}
