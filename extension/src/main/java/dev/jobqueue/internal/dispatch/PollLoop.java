package dev.jobqueue.internal.dispatch;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * Runs the polls of one queue's worker on the scheduler, at the poll interval and whenever woken. A round of
 * polling claims once per wake-up, those that come while it runs included, so polls of one queue never overlap.
 */
final class PollLoop {

    private final ScheduledExecutorService scheduler;
    private final Clock clock;
    private final Duration interval;
    private final BooleanSupplier claim;
    private final AtomicBoolean drainQueued = new AtomicBoolean();
    private final AtomicBoolean wakeRequested = new AtomicBoolean();
    private volatile boolean stopped;
    private volatile ScheduledFuture<?> timer;
    private volatile Instant lastPoll;
    /** Set while a round of polling runs, which may wait on a database that hangs. */
    private volatile boolean polling;

    /**
     * @param claim claims once for a wake-up; false when the round should claim no more
     */
    PollLoop(ScheduledExecutorService scheduler, Clock clock, Duration interval, BooleanSupplier claim) {
        this.scheduler = scheduler;
        this.clock = clock;
        this.interval = interval;
        this.claim = claim;
    }

    void start() {
        stopped = false;
        lastPoll = clock.instant();
        timer = scheduler.scheduleWithFixedDelay(this::wake, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    void stop() {
        stopped = true;
        ScheduledFuture<?> current = timer;
        if (current != null) {
            current.cancel(false);
        }
    }

    boolean isStopped() {
        return stopped;
    }

    /** See {@link QueueWorker#lastPoll()}. */
    Instant lastPoll() {
        if (stopped) {
            return null;
        }
        return polling ? clock.instant() : lastPoll;
    }

    /** Asks for a poll soon. Cheap, and safe to call from any thread, including transaction completion. */
    void wake() {
        if (stopped) {
            return;
        }
        wakeRequested.set(true);
        if (drainQueued.compareAndSet(false, true)) {
            try {
                scheduler.execute(this::drain);
            } catch (RejectedExecutionException e) {
                drainQueued.set(false);
            }
        }
    }

    private void drain() {
        lastPoll = clock.instant();
        polling = true;
        try {
            while (!stopped && wakeRequested.getAndSet(false)) {
                if (!claim.getAsBoolean()) {
                    return;
                }
            }
        } finally {
            polling = false;
            lastPoll = clock.instant();
            drainQueued.set(false);
            if (wakeRequested.get()) {
                wake();
            }
        }
    }
}
