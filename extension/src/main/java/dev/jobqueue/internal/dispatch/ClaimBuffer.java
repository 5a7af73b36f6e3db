package dev.jobqueue.internal.dispatch;

import dev.jobqueue.internal.store.ClaimedJob;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The jobs one queue's worker has claimed and not finished: those waiting for a runner, in claim order, and a
 * count of all of them in flight, whether waiting, running, or held for a put ({@link QueueWorker#reserve()}).
 * The count bounds what the next claim may take.
 */
final class ClaimBuffer {

    /**
     * A job waiting for a runner. One claimed ahead of the runners under a rate limit must start by {@code startBy}
     * on {@link System#nanoTime()}, or be handed back ({@code ClaimAhead}); the others may wait as long as their
     * lease lasts.
     */
    record Waiting(ClaimedJob job, boolean hasDeadline, long startBy) {

        static Waiting anyTime(ClaimedJob job) {
            return new Waiting(job, false, 0);
        }

        /** Whether it is too late, at {@code nanoTime}, to start the job. */
        boolean late(long nanoTime) {
            return hasDeadline && nanoTime - startBy > 0;
        }
    }

    private final Queue<Waiting> waiting = new ConcurrentLinkedQueue<>();
    private final AtomicInteger inFlight = new AtomicInteger();

    /** Adds claimed jobs for the runners, counted in flight from now on. */
    void addClaimed(List<ClaimedJob> jobs) {
        addClaimed(jobs, jobs.size(), Duration.ZERO, 0);
    }

    /**
     * Adds claimed jobs for the runners: the first {@code atOnce} as {@link #addClaimed(List)} does, and each of
     * the others to start within {@code startWithin} of {@code claimedAt} ({@link System#nanoTime()}), unless that is
     * zero.
     */
    void addClaimed(List<ClaimedJob> jobs, int atOnce, Duration startWithin, long claimedAt) {
        inFlight.addAndGet(jobs.size());
        for (int i = 0; i < jobs.size(); i++) {
            waiting.add(i < atOnce || startWithin.isZero() ? Waiting.anyTime(jobs.get(i))
                    : new Waiting(jobs.get(i), true, claimedAt + startWithin.toNanos()));
        }
    }

    /** Counts one more job in flight, if fewer than {@code limit} are: a runner held for a put. */
    boolean holdBelow(int limit) {
        while (true) {
            int current = inFlight.get();
            if (current >= limit) {
                return false;
            }
            if (inFlight.compareAndSet(current, current + 1)) {
                return true;
            }
        }
    }

    /** Adds the job of a put whose runner was held, and so is counted already. */
    void addHeld(ClaimedJob job) {
        waiting.add(Waiting.anyTime(job));
    }

    /** The next job for a runner, or null if none waits. */
    Waiting next() {
        return waiting.poll();
    }

    /** Counts {@code count} jobs out of flight: they finished, were handed back, or their put held no runner. */
    void ended(int count) {
        inFlight.addAndGet(-count);
    }

    /** Takes every waiting job out of the buffer and out of flight. */
    List<ClaimedJob> takeAll() {
        List<ClaimedJob> taken = new ArrayList<>();
        Waiting next;
        while ((next = waiting.poll()) != null) {
            taken.add(next.job());
            inFlight.decrementAndGet();
        }
        return taken;
    }

    boolean isEmpty() {
        return waiting.isEmpty();
    }

    int inFlight() {
        return inFlight.get();
    }
}
