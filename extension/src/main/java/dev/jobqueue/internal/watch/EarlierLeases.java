package dev.jobqueue.internal.watch;

import dev.jobqueue.internal.JndiNames;
import dev.jobqueue.internal.Messages;
import dev.jobqueue.internal.config.NodeName;
import dev.jobqueue.internal.dispatch.LeaseRenewal;
import dev.jobqueue.internal.store.HeldLease;
import dev.jobqueue.internal.store.LeaseStore;
import dev.jobqueue.internal.time.LeaseClock;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * At start-up, takes back the jobs an earlier run of this node held when it died (a kill, a crash, a power cut)
 * without waiting for their leases to expire, and never the jobs of a live process. It notes the leases recorded
 * under this node's name, watches them for {@link #WATCH}, and takes back only those that did not move. A lease
 * that moved has a live process renewing it under this node's name: two nodes share the name, which it logs as
 * JQ090. A row another transaction held at that moment, or a database that did not answer, is tried again every
 * {@link #RETRY} until the lease expires, when the expired-lease watch takes over.
 */
@ApplicationScoped
public class EarlierLeases {

    /** Two renewal rounds of any node, whatever its leases: a live process renews every lease it holds in that time. */
    static final Duration WATCH = LeaseRenewal.MAX_PERIOD.multipliedBy(2);

    /** How soon a lease that could not be taken back is tried again. */
    static final Duration RETRY = Duration.ofSeconds(1);

    private static final Logger LOG = Logger.getLogger(EarlierLeases.class.getName());

    @Inject
    NodeName node;

    @Inject
    LeaseStore store;

    @Inject
    LeaseClock leaseClock;

    @Inject
    LeaseRescues rescues;

    @Resource(lookup = JndiNames.SCHEDULER)
    ScheduledExecutorService scheduler;

    private volatile ScheduledFuture<?> takeBack;
    /** Whether the last take-back failed: an outage is logged once, not every retry. */
    private volatile boolean failing;
    private volatile boolean stopped;

    /** Notes the leases recorded under this node's name; those that do not move are taken back after {@link #WATCH}. */
    public void start() {
        try {
            List<HeldLease> noted = store.leasesOf(node.value());
            if (!noted.isEmpty()) {
                takeBackLater(noted, WATCH);
            }
        } catch (RuntimeException e) {
            LOG.warning("jobqueue: cannot read the jobs an earlier run of this node held; they run again once their"
                    + " leases expire: " + e);
        }
    }

    /** Gives up a take-back still waiting: the leases it watched expire, and other nodes take them back. */
    public void stop() {
        stopped = true;
        ScheduledFuture<?> waiting = takeBack;
        if (waiting != null) {
            waiting.cancel(false);
        }
    }

    private void takeBackLater(List<HeldLease> noted, Duration delay) {
        if (stopped) {
            return;
        }
        takeBack = scheduler.schedule(() -> takeBack(noted), delay.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void takeBack(List<HeldLease> noted) {
        List<HeldLease> again;
        try {
            LeaseStore.UnrenewedLeases unrenewed = store.takeBackUnrenewed(noted);
            if (unrenewed.renewed() > 0) {
                LOG.warning(Messages.sharedNodeName(node.value(), unrenewed.renewed(), WATCH));
            }
            rescues.report(unrenewed.rescued(), job -> "this node (" + node.value() + ") restarted while attempt "
                    + job.attempt() + " ran on it, and no process renewed its lease in the " + WATCH.toSeconds()
                    + " s after", leaseClock.now());
            again = unrenewed.locked();
            failing = false;
        } catch (RuntimeException e) {
            if (!failing) {
                LOG.warning("jobqueue: cannot take back the jobs an earlier run of this node held; trying again"
                        + " every " + RETRY.toSeconds() + " s until their leases expire: " + e);
            }
            failing = true;
            again = noted;
        }
        Instant now = leaseClock.now();
        List<HeldLease> unexpired = again.stream().filter(lease -> lease.leaseExpiresAt().isAfter(now)).toList();
        if (!unexpired.isEmpty()) {
            takeBackLater(unexpired, RETRY);
        }
    }
}
