package dev.jobqueue.internal.watch;

import dev.jobqueue.internal.JndiNames;
import dev.jobqueue.internal.config.QueueOptions;
import dev.jobqueue.internal.store.DatabaseReachability;
import dev.jobqueue.internal.store.Groups;
import dev.jobqueue.internal.store.JobState;
import dev.jobqueue.internal.store.Purges;
import dev.jobqueue.internal.task.OutageLog;
import dev.jobqueue.internal.task.PeriodicTask;
import dev.jobqueue.internal.time.JobQueueClock;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.logging.Logger;

/**
 * Deletes DONE jobs once they are older than their queue's {@code retention}, a chunk at a time, so a backlog of
 * a million is worked off in short transactions. FAILED jobs are kept. Each run also sweeps a slice of the group
 * rows for groups left without jobs.
 */
@ApplicationScoped
public class RetentionPurger {

    private static final Logger LOG = Logger.getLogger(RetentionPurger.class.getName());
    private static final Duration PERIOD = Duration.ofSeconds(30);

    @Inject
    @JobQueueClock
    Clock clock;

    private final OutageLog outage = new OutageLog(LOG, "the retention purger", "tries again later");
    private final PeriodicTask task = new PeriodicTask();
    /** Where the group sweep goes on from; it goes round the group table a slice per run. */
    private volatile String sweptTo;

    @Resource(lookup = JndiNames.SCHEDULER)
    ScheduledExecutorService scheduler;

    @Inject
    Purges purges;

    @Inject
    Groups groups;

    @Inject
    DatabaseReachability database;

    public void start(Collection<QueueOptions> queues) {
        List<QueueOptions> retained = queues.stream().filter(options -> !options.retention().isZero()).toList();
        task.start(scheduler, () -> outage.attempt(database, () -> purge(retained)), PERIOD, PERIOD);
    }

    public void stop() {
        task.stop();
    }

    private void purge(List<QueueOptions> queues) {
        for (QueueOptions options : queues) {
            int deleted = purges.purge(JobState.DONE, options.queue(), clock.instant().minus(options.retention()));
            if (deleted > 0) {
                LOG.fine(() -> "jobqueue: deleted " + deleted + " DONE jobs of queue " + options.queue()
                        + " older than " + options.retention());
            }
        }
        sweptTo = groups.sweep(sweptTo);
    }
}
