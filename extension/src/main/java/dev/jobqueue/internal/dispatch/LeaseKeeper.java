package dev.jobqueue.internal.dispatch;

import dev.jobqueue.internal.config.QueueOptions;
import dev.jobqueue.internal.store.JobStore;
import dev.jobqueue.internal.time.JobQueueClock;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
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

    private volatile boolean failing;
    private volatile ScheduledFuture<?> task;

    @Resource(lookup = "java:comp/DefaultManagedScheduledExecutorService")
    ManagedScheduledExecutorService scheduler;

    @Inject
    JobStore store;

    @Inject
    RunningJobs running;

    /** Starts the task; it runs every third of the shortest lease, and at least every five seconds. */
    public void start(Function<String, QueueOptions> optionsOf, Duration shortestLease) {
        Duration third = shortestLease.dividedBy(3);
        long period = Math.max(100, Math.min(third.toMillis(), MAX_PERIOD.toMillis()));
        task = scheduler.scheduleWithFixedDelay(() -> keep(optionsOf), period, period, TimeUnit.MILLISECONDS);
    }

    public void stop() {
        ScheduledFuture<?> current = task;
        if (current != null) {
            current.cancel(false);
        }
    }

    private void keep(Function<String, QueueOptions> optionsOf) {
        try {
            Instant now = clock.instant();
            Map<String, List<String>> tokensByQueue = running.snapshot().stream().map(RunningJobs.Entry::job)
                    .collect(Collectors.groupingBy(job -> job.queue(),
                            Collectors.mapping(job -> job.leaseToken(), Collectors.toList())));
            tokensByQueue.forEach((queue, tokens) ->
                    store.renewLeases(tokens.stream().distinct().toList(), now.plus(optionsOf.apply(queue).lease())));
            int rescued = store.rescueExpiredLeases(now);
            if (rescued > 0) {
                LOG.warning("jobqueue: " + rescued + " jobs had expired leases, their node died or lost the"
                        + " database; they are PENDING again");
            }
            if (failing) {
                failing = false;
                LOG.info("jobqueue: the lease keeper reaches the database again");
            }
        } catch (RuntimeException e) {
            if (!failing) {
                failing = true;
                LOG.warning("jobqueue: the lease keeper cannot reach the database and keeps trying: " + e);
            }
        }
    }
}
