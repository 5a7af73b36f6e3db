package dev.jobqueue.internal.dispatch;

import dev.jobqueue.internal.store.ClaimedJob;
import dev.jobqueue.internal.store.LeaseStore;
import dev.jobqueue.internal.time.JobQueueClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * Leases this node may hold on jobs it does not run: a claim whose answer was lost with its connection, which may
 * have committed (its jobs are then RUNNING under a token no worker knows of), and jobs whose hand-back failed.
 * Each round of the lease keeper hands them back, fenced by their lease tokens, so that they run again within a
 * round of the database answering rather than when their leases expire. Once a lease has expired, lease rescue
 * takes its jobs back instead, and the entry is dropped.
 */
@ApplicationScoped
public class UnsettledLeases {

    private static final Logger LOG = Logger.getLogger(UnsettledLeases.class.getName());

    private final LeaseStore store;
    private final Clock clock;
    /** By lease token for a lost claim, by job id for a job not handed back. */
    private final Map<String, Unsettled> unsettled = new ConcurrentHashMap<>();

    @Inject
    public UnsettledLeases(LeaseStore store, @JobQueueClock Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /** For the container's client proxy. */
    protected UnsettledLeases() {
        this(null, null);
    }

    /**
     * One lease to hand back.
     *
     * @param job       the job not handed back, or null for every job of a lost claim
     * @param dropAfter when the lease has surely expired, on this node's clock
     */
    private record Unsettled(String queue, String leaseToken, ClaimedJob job, Instant dropAfter) {
    }

    /** A claim of {@code queue} under {@code leaseToken} failed with its connection, and may have taken jobs. */
    public void claimLost(String queue, String leaseToken, Duration lease) {
        unsettled.put(leaseToken, new Unsettled(queue, leaseToken, null, clock.instant().plus(lease)));
    }

    /** A claimed job that will not run here could not be handed back. */
    public void handBackFailed(ClaimedJob job, Duration lease) {
        unsettled.put(job.id(), new Unsettled(job.queue(), job.leaseToken(), job, clock.instant().plus(lease)));
    }

    /**
     * Hands back what it holds, in the caller's round; an entry stays until that succeeds or its lease has
     * expired. Throws, keeping the rest, if the database does not answer.
     *
     * @return the queues some of whose jobs were handed back, to claim from their first due job
     */
    public Set<String> settle() {
        Set<String> released = new HashSet<>();
        Instant now = clock.instant();
        for (Map.Entry<String, Unsettled> entry : unsettled.entrySet()) {
            Unsettled lease = entry.getValue();
            if (now.isAfter(lease.dropAfter())) {
                unsettled.remove(entry.getKey(), lease);
                continue;
            }
            int jobs = lease.job() == null ? store.releaseClaim(lease.leaseToken()) : store.release(List.of(lease.job()));
            unsettled.remove(entry.getKey(), lease);
            if (jobs > 0) {
                released.add(lease.queue());
                LOG.info(() -> "jobqueue: " + jobs + " job(s) of queue " + lease.queue() + " that "
                        + (lease.job() == null ? "a claim took as its connection was lost" : "could not be handed back")
                        + " are PENDING again");
            }
        }
        return released;
    }
}
