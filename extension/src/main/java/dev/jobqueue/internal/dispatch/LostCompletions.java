package dev.jobqueue.internal.dispatch;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How often this node handed back each job whose completion lost its database connection: a failover takes one
 * completion away, and a job whose own completion loses its connection again and again (a consumer that holds its
 * transaction open past an idle timeout, a connection it breaks itself) would otherwise run for ever. A job may be
 * handed back {@value #FREE_HAND_BACKS} times within {@link #WINDOW}; after that its attempt counts. A job's count
 * ends with the window, and at most {@value #MAX_TRACKED} jobs are tracked, the oldest forgotten first.
 */
final class LostCompletions {

    static final int FREE_HAND_BACKS = 3;
    static final Duration WINDOW = Duration.ofMinutes(10);
    static final int MAX_TRACKED = 10_000;

    /** The hand-backs of each job within the window, oldest first; the map is in order of each job's first. */
    private final Map<String, Deque<Instant>> byJob = new LinkedHashMap<>();

    /**
     * Whether job {@code id} may be handed back once more at {@code now}; if so, the hand-back is counted.
     *
     * @return false once the job has been handed back {@value #FREE_HAND_BACKS} times within the window
     */
    synchronized boolean tryHandBack(String id, Instant now) {
        forgetBefore(now.minus(WINDOW));
        Deque<Instant> times = byJob.computeIfAbsent(id, job -> new ArrayDeque<>());
        if (times.size() >= FREE_HAND_BACKS) {
            return false;
        }
        times.addLast(now);
        return true;
    }

    /** Whether job {@code id} may be handed back once more at {@code now}, without counting it. */
    synchronized boolean mayHandBack(String id, Instant now) {
        forgetBefore(now.minus(WINDOW));
        Deque<Instant> times = byJob.get(id);
        return times == null || times.size() < FREE_HAND_BACKS;
    }

    /** Forgets job {@code id}: its attempt counted. */
    synchronized void forget(String id) {
        byJob.remove(id);
    }

    private void forgetBefore(Instant cutoff) {
        for (Iterator<Deque<Instant>> jobs = byJob.values().iterator(); jobs.hasNext(); ) {
            Deque<Instant> times = jobs.next();
            while (!times.isEmpty() && times.peekFirst().isBefore(cutoff)) {
                times.removeFirst();
            }
            if (times.isEmpty()) {
                jobs.remove();
            }
        }
        for (Iterator<String> oldest = byJob.keySet().iterator(); byJob.size() > MAX_TRACKED; ) {
            oldest.next();
            oldest.remove();
        }
    }
}
