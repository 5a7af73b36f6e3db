package dev.jobqueue.internal.store;

import java.time.Instant;
import java.util.Objects;

/**
 * A RUNNING job's lease as read at one moment: a live process that holds it writes a new expiry every renewal
 * round, so a lease read again unchanged a few rounds later has no process renewing it.
 *
 * @param id             the job
 * @param queue          its queue
 * @param attempt        the attempt that holds the lease
 * @param leaseToken     the attempt's lease token
 * @param leaseExpiresAt when the lease expires, as last written
 */
public record HeldLease(String id, String queue, int attempt, String leaseToken, Instant leaseExpiresAt) {

    /** Whether this is {@code earlier}'s attempt with a new expiry: a process renewed it in between. */
    public boolean renewedSince(HeldLease earlier) {
        return earlier != null && id.equals(earlier.id) && Objects.equals(leaseToken, earlier.leaseToken)
                && !Objects.equals(leaseExpiresAt, earlier.leaseExpiresAt);
    }

    /** This lease's job, as one whose lease was taken back. */
    public RescuedJob rescued() {
        return new RescuedJob(id, queue, attempt, leaseExpiresAt);
    }
}
