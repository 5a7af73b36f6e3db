package dev.jobqueue.internal.dispatch;

import dev.jobqueue.JobId;
import dev.jobqueue.LeaseRescued;
import dev.jobqueue.internal.config.QueueOptions;
import dev.jobqueue.internal.metrics.JobMetrics;
import dev.jobqueue.internal.store.DatabaseReachability;
import dev.jobqueue.internal.store.JobStore;
import dev.jobqueue.internal.store.OutageLog;
import dev.jobqueue.internal.store.RescuedJob;
import dev.jobqueue.internal.time.JobQueueClock;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * One task per node that renews the leases of the jobs this node runs, so a live node never loses a long
 * job, and hands back the jobs of nodes whose leases expired, so a dead node's jobs run again within seconds.
 */
@ApplicationScoped
public class LeaseKeeper {

    private static final Logger LOG = Logger.getLogger(LeaseKeeper.class.getName());
    private static final Duration MAX_PERIOD = Duration.ofSeconds(5);

    @Inject
    @JobQueueClock
    Clock clock;

    private static final int RESCUE_LIMIT = 500;

    private final OutageLog outage = new OutageLog(LOG, "the lease keeper", "keeps trying");
    private volatile Instant lastRun;
    private volatile Duration period = MAX_PERIOD;
    private final PeriodicTask task = new PeriodicTask();

    @Resource(lookup = "java:comp/DefaultManagedScheduledExecutorService")
    ManagedScheduledExecutorService scheduler;

    @Inject
    JobStore store;

    @Inject
    RunningJobs running;

    @Inject
    JobMetrics metrics;

    @Inject
    Event<LeaseRescued> rescues;

    @Inject
    Dispatcher dispatcher;

    @Inject
    DatabaseReachability database;

    /** Starts the task; it runs every third of the shortest lease, and at least every five seconds. */
    public void start(Function<String, QueueOptions> optionsOf, Duration shortestLease) {
        Duration third = shortestLease.dividedBy(3);
        period = Duration.ofMillis(Math.max(100, Math.min(third.toMillis(), MAX_PERIOD.toMillis())));
        lastRun = clock.instant();
        task.start(scheduler, () -> keep(optionsOf), period, period);
    }

    /** When the task last completed a round, or null if it is not started. */
    public Instant lastRun() {
        return task.isStarted() ? lastRun : null;
    }

    /** How often the task runs. */
    public Duration period() {
        return period;
    }

    public void stop() {
        task.stop();
    }

    private void keep(Function<String, QueueOptions> optionsOf) {
        if (!outage.mayTry(database)) {
            return;
        }
        try {
            Instant now = clock.instant();
            Map<String, List<String>> tokensByQueue = running.snapshot().stream().map(RunningJobs.Entry::job)
                    .collect(Collectors.groupingBy(job -> job.queue(),
                            Collectors.mapping(job -> job.leaseToken(), Collectors.toList())));
            tokensByQueue.forEach((queue, tokens) ->
                    store.renewLeases(tokens.stream().distinct().toList(), now.plus(optionsOf.apply(queue).lease())));
            List<RescuedJob> rescued = store.rescueExpiredLeases(now, RESCUE_LIMIT);
            for (RescuedJob job : rescued) {
                String reason = "the lease of attempt " + job.attempt() + " expired at " + job.leaseExpiredAt()
                        + ": its node died or lost the database";
                LOG.warning("jobqueue: job " + job.id() + " on queue " + job.queue() + " is PENDING again: " + reason);
                metrics.leaseRescued(job.queue());
                Observers.notify(rescues, new LeaseRescued(JobId.parse(job.id()), job.queue(), job.attempt(), reason,
                        job.leaseExpiredAt(), now), LOG);
            }
            // Claim them now rather than at the next poll: a dead node's jobs come back within the lease.
            rescued.stream().map(RescuedJob::queue).distinct().forEach(dispatcher::wake);
            lastRun = now;
            outage.succeeded();
        } catch (RuntimeException e) {
            outage.failed(e);
        }
    }
}
