package dev.jobqueue.internal.dispatch;

import dev.jobqueue.internal.store.ClaimedJob;
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

    private final Queue<ClaimedJob> waiting = new ConcurrentLinkedQueue<>();
    private final AtomicInteger inFlight = new AtomicInteger();

    /** Adds claimed jobs for the runners, counted in flight from now on. */
    void addClaimed(List<ClaimedJob> jobs) {
        inFlight.addAndGet(jobs.size());
        waiting.addAll(jobs);
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
        waiting.add(job);
    }

    /** The next job for a runner, or null if none waits. */
    ClaimedJob next() {
        return waiting.poll();
    }

    /** Counts {@code count} jobs out of flight: they finished, were handed back, or their put held no runner. */
    void ended(int count) {
        inFlight.addAndGet(-count);
    }

    /** Takes every waiting job out of the buffer and out of flight. */
    List<ClaimedJob> takeAll() {
        List<ClaimedJob> taken = new ArrayList<>();
        ClaimedJob job;
        while ((job = waiting.poll()) != null) {
            taken.add(job);
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
