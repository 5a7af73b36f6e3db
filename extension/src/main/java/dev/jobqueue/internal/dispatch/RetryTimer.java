package dev.jobqueue.internal.dispatch;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * When the claims of one queue's worker take retries. After an attempt fails here, regular polls claim no
 * retries until the next one: a failing system is not hammered by retries that other nodes failed. A retry this
 * node failed is claimed when it is due instead: a timer wakes the worker then, and that claim takes retries
 * even while a later failure holds them back from regular polls.
 */
final class RetryTimer {

    /** Timers are rounded up to this, so that many retries due at about one time share one timer. */
    static final long TICK_MILLIS = 50;

    /**
     * One claim's view of retries.
     *
     * @param includeRetries whether the claim takes retries
     * @param timerFired     whether a retry timer fired for it
     */
    record Turn(boolean includeRetries, boolean timerFired) {
    }

    private final ScheduledExecutorService scheduler;
    private final Clock clock;
    private final Duration pollInterval;
    /** Whether a failure holds retries back; not when a test runs the queue by hand. */
    private final boolean holdAfterFailure;
    private final Runnable wake;
    /** When the timers set by {@link #wakeWhenDue} fire, in epoch milliseconds. */
    private final Set<Long> timers = ConcurrentHashMap.newKeySet();
    /** A timer fired: the next claim takes retries even if a later failure holds them. */
    private final AtomicBoolean fired = new AtomicBoolean();
    private volatile Instant heldUntil = Instant.MIN;

    /**
     * @param wake asks the worker for a poll
     */
    RetryTimer(ScheduledExecutorService scheduler, Clock clock, Duration pollInterval, boolean holdAfterFailure,
            Runnable wake) {
        this.scheduler = scheduler;
        this.clock = clock;
        this.pollInterval = pollInterval;
        this.holdAfterFailure = holdAfterFailure;
        this.wake = wake;
    }

    /**
     * Wakes the worker when a job this node just failed is due again, up to {@value #TICK_MILLIS} ms later, and
     * never before: a claim a fraction of a millisecond early would find nothing due, and no later timer would come.
     */
    void wakeWhenDue(Instant runAt) {
        long now = clock.millis();
        long dueMillis = runAt.toEpochMilli() + (runAt.getNano() % 1_000_000 == 0 ? 0 : 1);
        long tick = Math.floorDiv(dueMillis + TICK_MILLIS - 1, TICK_MILLIS) * TICK_MILLIS;
        if (!timers.add(tick)) {
            return;
        }
        try {
            scheduler.schedule(() -> {
                timers.remove(tick);
                fired.set(true);
                wake.run();
            }, Math.max(0, tick - now), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            timers.remove(tick);
        }
    }

    /** An attempt failed here: regular polls claim no retries for a poll interval. */
    void attemptFailed() {
        if (holdAfterFailure) {
            heldUntil = clock.instant().plus(pollInterval);
        }
    }

    /**
     * Begins a claim: it takes retries if a timer fired or no failure holds them. The claim must read its time
     * after this, so that a timer's claim is never earlier than the timer.
     */
    Turn nextClaim() {
        boolean timerFired = fired.getAndSet(false);
        return new Turn(timerFired || !clock.instant().isBefore(heldUntil), timerFired);
    }

    /** The claim may have left due retries behind, being full or failed: if a timer fired, the next one takes them. */
    void mayHaveLeftRetries(Turn turn) {
        if (turn.timerFired()) {
            fired.set(true);
        }
    }
}
