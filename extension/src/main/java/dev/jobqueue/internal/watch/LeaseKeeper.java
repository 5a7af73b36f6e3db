package dev.jobqueue.internal.watch;

import dev.jobqueue.internal.JndiNames;
import dev.jobqueue.internal.Messages;
import dev.jobqueue.internal.config.QueueOptions;
import dev.jobqueue.internal.dispatch.Dispatcher;
import dev.jobqueue.internal.dispatch.LeaseRenewal;
import dev.jobqueue.internal.dispatch.RunningJobs;
import dev.jobqueue.internal.dispatch.UnsettledLeases;
import dev.jobqueue.internal.store.DatabaseReachability;
import dev.jobqueue.internal.store.DatabaseTime;
import dev.jobqueue.internal.store.LeaseStore;
import dev.jobqueue.internal.store.LeasedJob;
import dev.jobqueue.internal.store.LockWaitTimeout;
import dev.jobqueue.internal.task.OutageLog;
import dev.jobqueue.internal.task.PeriodicTask;
import dev.jobqueue.internal.time.JobQueueClock;
import dev.jobqueue.internal.time.LeaseClock;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Function;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * One task per node that renews the leases of the jobs this node runs, so a live node never loses a long
 * job, and hands back the jobs of nodes whose leases expired, so a dead node's jobs run again within seconds:
 * a lease seen expired in two rounds in a row, with nothing renewing it between them, is taken back. Each round
 * also hands back this node's {@link UnsettledLeases}. Leases are measured on the database's clock
 * ({@link LeaseClock}), which each round reads.
 */
@ApplicationScoped
public class LeaseKeeper {

    private static final Logger LOG = Logger.getLogger(LeaseKeeper.class.getName());
    private static final int RESCUE_LIMIT = 500;
    /** A node clock this far from the database's is logged: run times and backoff use the node's clock. */
    private static final Duration NOTABLE_OFFSET = Duration.ofSeconds(2);

    @Inject
    @JobQueueClock
    Clock clock;

    @Inject
    LeaseClock leaseClock;

    @Inject
    DatabaseTime databaseTime;

    @Resource(lookup = JndiNames.SCHEDULER)
    ScheduledExecutorService scheduler;

    @Resource(lookup = JndiNames.EXECUTOR)
    ExecutorService executor;

    @Inject
    LeaseStore store;

    @Inject
    RunningJobs running;

    @Inject
    LeaseRescues rescues;

    @Inject
    UnsettledLeases unsettled;

    @Inject
    Dispatcher dispatcher;

    @Inject
    DatabaseReachability database;

    private final OutageLog outage = new OutageLog(LOG, "the lease keeper", "keeps trying");
    private final PeriodicTask task = new PeriodicTask();
    /** Attempts whose row was locked at renewal, each with a task waiting to renew it once it is free. */
    private final Set<LeasedJob> waitingRenewals = ConcurrentHashMap.newKeySet();
    /** The leases the last round saw expired, which this round takes back if they are still so. */
    private Map<String, Instant> seenExpired = Map.of();
    private volatile Instant lastRound;
    /** Set while a round runs, which may wait on a database that hangs. */
    private volatile boolean inRound;
    private volatile Duration period = LeaseRenewal.MAX_PERIOD;
    private volatile boolean clockOffsetLogged;

    /**
     * Before the node's queues start: reads the database's clock, so that the first leases are written in it.
     * If the database does not answer, leases follow this node's clock until the first round.
     */
    public void readDatabaseClock() {
        try {
            synchronizeClock();
        } catch (RuntimeException e) {
            LOG.warning(Messages.cannotReadDatabaseClock(e));
        }
    }

    /**
     * Starts the task; a round starts every third of the shortest lease, and at least every five seconds, however
     * long the one before took: a lease is renewed, and a dead node's taken back, on that beat.
     */
    public void start(Function<String, QueueOptions> optionsOf, Duration shortestLease) {
        period = LeaseRenewal.period(shortestLease);
        lastRound = clock.instant();
        task.startAtFixedRate(scheduler, () -> round(optionsOf), period, period);
    }

    /**
     * When the task last ran a round, whether or not the database answered, and now while a round runs, or null if
     * it is not started: a node whose database is down or hangs is alive, and waits for it.
     */
    public Instant lastRound() {
        if (!task.isStarted()) {
            return null;
        }
        return inRound ? clock.instant() : lastRound;
    }

    /** How often the task runs. */
    public Duration period() {
        return period;
    }

    public void stop() {
        task.stop();
    }

    /** One round: renews and rescues, and records that it ran, whether or not the database answered. */
    private void round(Function<String, QueueOptions> optionsOf) {
        inRound = true;
        try {
            outage.attempt(database, () -> keep(optionsOf));
        } finally {
            inRound = false;
            lastRound = clock.instant();
        }
    }

    private void keep(Function<String, QueueOptions> optionsOf) {
        synchronizeClock();
        renew(optionsOf);
        unsettled.settle().forEach(dispatcher::rewind);
        Instant now = leaseClock.now();
        LeaseStore.ExpiredLeases expired = store.takeBackExpiredLeases(now, RESCUE_LIMIT, seenExpired);
        seenExpired = expired.seen();
        rescues.report(expired.rescued(), job -> "the lease of attempt " + job.attempt() + " expired at "
                + job.leaseExpiredAt() + ": its node died or lost the database", now);
    }

    private void synchronizeClock() {
        long before = System.nanoTime();
        Instant databaseNow = databaseTime.now();
        long after = System.nanoTime();
        Duration ahead = leaseClock.synchronize(databaseNow, before + (after - before) / 2);
        boolean notable = ahead.abs().compareTo(NOTABLE_OFFSET) > 0;
        if (notable != clockOffsetLogged) {
            clockOffsetLogged = notable;
            LOG.warning(notable
                    ? "jobqueue: this node's clock is " + ahead + " ahead of the database's (negative: behind)."
                            + " Leases use the database's clock; run times, delays and backoff use this node's"
                    : "jobqueue: this node's clock agrees with the database's again");
        }
    }

    private void renew(Function<String, QueueOptions> optionsOf) {
        Map<String, List<String>> tokensByQueue = running.snapshot().stream().map(RunningJobs.Entry::job)
                .collect(Collectors.groupingBy(job -> job.queue(),
                        Collectors.mapping(job -> job.leaseToken(), Collectors.toList())));
        tokensByQueue.forEach((queue, tokens) -> {
            Duration lease = optionsOf.apply(queue).lease();
            Instant until = leaseClock.now().plus(lease);
            LeaseStore.Renewal renewal = store.renewLeases(tokens.stream().distinct().toList(), until);
            running.renewed(renewal.renewed(), until);
            renewal.locked().stream().filter(running::holds).forEach(job -> renewOnceUnlocked(job, lease));
        });
    }

    /**
     * Renews an attempt whose row another transaction holds, on a task of its own that waits for the lock: a
     * put of a job that waits for this one locks its row until the put commits, however long that takes, and
     * the lease must be renewed the moment it does.
     */
    private void renewOnceUnlocked(LeasedJob job, Duration lease) {
        if (!waitingRenewals.add(job)) {
            return;
        }
        try {
            executor.execute(() -> {
                try {
                    waitAndRenew(job, lease);
                } finally {
                    waitingRenewals.remove(job);
                }
            });
        } catch (RejectedExecutionException e) {
            waitingRenewals.remove(job);
        }
    }

    private void waitAndRenew(LeasedJob job, Duration lease) {
        while (task.isStarted() && running.holds(job)) {
            try {
                store.renewLockedLease(job, () -> leaseClock.now().plus(lease))
                        .ifPresent(until -> running.renewed(List.of(job), until));
                return;
            } catch (LockWaitTimeout stillLocked) {
                // Only H2 gives up waiting: ask again at once.
            } catch (RuntimeException e) {
                return; // the next round tries again
            }
        }
    }
}
