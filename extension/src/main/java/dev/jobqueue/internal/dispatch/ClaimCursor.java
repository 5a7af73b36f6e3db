package dev.jobqueue.internal.dispatch;

import dev.jobqueue.internal.store.ClaimStart;
import dev.jobqueue.internal.store.ClaimedJob;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Where the next claim of one queue on this node starts reading its due jobs.
 *
 * <p>While a snapshot stays open anywhere in the database (a transaction left idle, a long report, a replica's
 * feedback), the index of PENDING jobs keeps an entry for every job claimed since, and a claim that reads from the
 * first due job reads through all of them: after three minutes at 600 jobs/s, 100,000 entries for every claim.
 * So most claims start where the last one ended, at its last job's priority, {@link #LAG} before that job's due
 * time. A claim reads from the first due job when there is no such place yet, at least once every
 * {@link #FULL_READ_EVERY}, and after a {@link #rewind()}: when jobs due earlier may have become claimable here.
 *
 * <p>A job that a claim starting at a place cannot see waits for the next claim from the first due job, at most
 * {@link #FULL_READ_EVERY}: one of another priority, one whose put committed more than {@link #LAG} after its
 * due time, or one made PENDING again on another node (a rescue, a dependency released, the next job of an
 * ordering key).
 *
 * <p>When a test runs the queue by hand every claim reads from the first due job: its clock may stand still.
 */
final class ClaimCursor {

    /** How often a claim reads from the first due job, however busy the queue. */
    static final Duration FULL_READ_EVERY = Duration.ofSeconds(1);
    /**
     * How far before the last claimed job's due time the next claim starts: room for puts that commit a little
     * after their due time, and for nodes' clocks that differ a little.
     */
    static final Duration LAG = Duration.ofSeconds(1);

    private final boolean on;
    private final LongSupplier nanoTime;
    private ClaimStart next;
    private long lastFullRead;
    private volatile boolean rewound = true;

    private ClaimCursor(boolean on, LongSupplier nanoTime) {
        this.on = on;
        this.nanoTime = nanoTime;
    }

    /** A cursor that measures {@link #FULL_READ_EVERY} on {@code nanoTime}, as {@link System#nanoTime()} counts. */
    static ClaimCursor measuring(LongSupplier nanoTime) {
        return new ClaimCursor(true, nanoTime);
    }

    /** A cursor that has every claim read from the first due job. */
    static ClaimCursor alwaysFromFirst() {
        return new ClaimCursor(false, () -> 0);
    }

    /** Where the next claim starts: null for the first due job. */
    synchronized ClaimStart start() {
        long now = nanoTime.getAsLong();
        if (!on || next == null || rewound || now - lastFullRead >= FULL_READ_EVERY.toNanos()) {
            rewound = false;
            lastFullRead = now;
            return null;
        }
        return next;
    }

    /** A claim took {@code jobs}, in claim order: the next one starts after the last of them. */
    synchronized void claimed(List<ClaimedJob> jobs) {
        if (jobs.isEmpty()) {
            return;
        }
        ClaimedJob last = jobs.get(jobs.size() - 1);
        Instant dueFrom = last.dueAt().minus(LAG);
        if (next != null && next.priority() == last.priority() && next.dueFrom().isAfter(dueFrom)) {
            // A late put claimed from near the place: the place does not move back.
            return;
        }
        next = new ClaimStart(last.priority(), dueFrom);
    }

    /** Jobs due before the last claim's may have become claimable: the next claim reads from the first due job. */
    void rewind() {
        rewound = true;
    }
}
