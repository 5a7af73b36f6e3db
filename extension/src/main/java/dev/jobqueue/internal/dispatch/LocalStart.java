package dev.jobqueue.internal.dispatch;

import dev.jobqueue.internal.store.ClaimedJob;
import dev.jobqueue.internal.store.NewJob;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A runner of this node held for a job being put while its queue has nothing else to do here. The job is
 * written RUNNING under this lease, and once the put commits it starts on this node without a claim: no
 * poll, no claim transaction, one hand-off to a runner. If the put rolls back, {@link #cancel} gives the
 * runner back; if the job was written PENDING after all because its queue is paused, {@link #queuePaused}.
 */
public final class LocalStart {

    private final Reservations reservations;
    private final String leaseToken;
    private final Instant startedAt;
    private final Instant leaseExpiresAt;
    private final AtomicBoolean settled = new AtomicBoolean();

    LocalStart(Reservations reservations, String leaseToken, Instant startedAt, Instant leaseExpiresAt) {
        this.reservations = reservations;
        this.leaseToken = leaseToken;
        this.startedAt = startedAt;
        this.leaseExpiresAt = leaseExpiresAt;
    }

    public String leaseToken() {
        return leaseToken;
    }

    public Instant startedAt() {
        return startedAt;
    }

    public Instant leaseExpiresAt() {
        return leaseExpiresAt;
    }

    /** After the put's commit: runs the job, written RUNNING under this lease, on the held runner. */
    public void run(NewJob job) {
        if (settled.compareAndSet(false, true)) {
            reservations.start(new ClaimedJob(job.id(), job.queue(), job.payload(), 1, job.createdAt(), job.runAt(),
                    leaseToken, job.group(), job.orderingKey(), job.priority(), job.putBy()), leaseExpiresAt);
        }
    }

    /** Gives the held runner back: the put failed or rolled back. */
    public void cancel() {
        if (settled.compareAndSet(false, true)) {
            reservations.cancel(false);
        }
    }

    /**
     * Gives the held runner back because the queue is paused, and stops holding runners for puts on it until its
     * next poll: while it is paused, every put would write nothing and try again PENDING.
     */
    public void queuePaused() {
        if (settled.compareAndSet(false, true)) {
            reservations.cancel(true);
        }
    }
}
