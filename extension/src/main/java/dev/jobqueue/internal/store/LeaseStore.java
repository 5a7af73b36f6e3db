package dev.jobqueue.internal.store;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The leases of RUNNING jobs: renewing those this node holds, taking back those that expired or that no process
 * renews any more, and handing back jobs claimed but not run.
 */
public interface LeaseStore {

    /**
     * Extends the leases of these attempts that are still RUNNING. It never waits for a row: waiting could
     * deadlock on MariaDB, whose locks are taken index by index: this statement finds rows through the
     * lease-token index first, a job's finish locks its row first, and each would need the other's lock. The
     * attempts whose rows another transaction holds locked (a finish, or a put of a job that waits for them) are
     * returned apart, for {@link #renewLockedLease}.
     */
    Renewal renewLeases(List<String> leaseTokens, Instant leaseExpiresAt);

    /**
     * What {@link #renewLeases} did.
     *
     * @param renewed the attempts whose leases it extended
     * @param locked  the attempts it skipped because another transaction holds their rows
     */
    record Renewal(List<LeasedJob> renewed, List<LeasedJob> locked) {
    }

    /**
     * Extends one attempt's lease, waiting for as long as another transaction holds its row: a put of a job that
     * waits for this one locks the row until the put commits. The row is locked first, found by its primary key
     * so that this cannot deadlock with the attempt's own finish, and the new expiry is taken only once it is
     * locked, so a long wait does not shorten the lease. While this waits no other node can take the lease
     * back, because rescue skips locked rows, and once the row is free this waiter has it first.
     *
     * @param leaseExpiresAt the new expiry, asked for once the row is locked
     * @return the new expiry, or empty if the attempt no longer holds its lease
     * @throws LockWaitTimeout if the database gave up waiting (H2 waits at most its {@code LOCK_TIMEOUT})
     */
    Optional<Instant> renewLockedLease(LeasedJob job, Supplier<Instant> leaseExpiresAt);

    /**
     * Makes RUNNING jobs whose lease expired before {@code now}, on the database's clock, PENDING again, so
     * any node can claim them: their node died or lost contact. A job is taken back only when it is seen
     * expired twice, a round apart, with the same expiry, and not locked either time: a lease that expired while
     * another transaction held the row (a put of a job that waits for it) gets a round in which its node can
     * renew it, which that node does the moment the row is free. Takes at most {@code limit} per call, oldest
     * expiry first, and skips rows another node holds. The job keeps its due time, and so its place in line.
     * Payloads are not read.
     *
     * @param seenBefore the jobs the last call saw expired, with their expiry ({@link ExpiredLeases#seen()})
     */
    ExpiredLeases takeBackExpiredLeases(Instant now, int limit, Map<String, Instant> seenBefore);

    /**
     * What {@link #takeBackExpiredLeases} did.
     *
     * @param rescued the jobs it made PENDING
     * @param seen    the jobs it saw expired for the first time, to take back next time if nothing changes
     */
    record ExpiredLeases(List<RescuedJob> rescued, Map<String, Instant> seen) {
    }

    /**
     * The RUNNING jobs recorded under {@code node}, with their leases as they stand, read without a lock. At
     * start-up these are the jobs an earlier run of this node held, and any that another live process with this
     * node's name holds.
     */
    List<HeldLease> leasesOf(String node);

    /**
     * Makes PENDING again the jobs of {@code noted} whose leases have not moved since they were noted: still
     * RUNNING under the same attempt, with the same expiry. A lease that moved is renewed by a live process and
     * is left to it. Each row is locked before it is compared, so a renewal either commits first and wins, or
     * finds the lease gone once this commits; a row another transaction holds locked is skipped, and reported if
     * a plain read still finds its lease unmoved. The jobs keep their due time, and so their place in line.
     */
    UnrenewedLeases takeBackUnrenewed(List<HeldLease> noted);

    /**
     * What {@link #takeBackUnrenewed} did.
     *
     * @param rescued the jobs it made PENDING
     * @param renewed how many noted leases had moved: a live process renews them
     * @param locked  the noted leases, still unmoved, whose rows another transaction held: to try again
     */
    record UnrenewedLeases(List<RescuedJob> rescued, int renewed, List<HeldLease> locked) {
    }

    /**
     * Hands back jobs this node claimed but did not start or finish: at shutdown, and a claimed job whose
     * lease ran out before a runner took it. The attempt is not counted, because the job never failed, and the
     * job keeps its due time, and so its place in line. Each job is matched by id and its lease token.
     */
    int release(Collection<ClaimedJob> jobs);

    /**
     * Hands back, as {@link #release} does, every job still RUNNING under {@code leaseToken}: the jobs of a claim
     * whose answer was lost with its connection, which may have committed without this node learning what it took.
     *
     * @return how many jobs it handed back
     */
    int releaseClaim(String leaseToken);
}
