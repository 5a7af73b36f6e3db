package dev.jobqueue.internal.metrics;

import dev.jobqueue.internal.JndiNames;
import dev.jobqueue.internal.store.AdminStore;
import dev.jobqueue.internal.store.DatabaseReachability;
import dev.jobqueue.internal.store.JobState;
import dev.jobqueue.internal.task.OutageLog;
import dev.jobqueue.internal.task.PeriodicTask;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * Counts each queue's PENDING, RUNNING, FAILED and CANCELLED jobs every few seconds, so that a metrics scrape reads a
 * cached number instead of querying the database.
 */
@ApplicationScoped
public class QueueDepths {

    private static final Logger LOG = Logger.getLogger(QueueDepths.class.getName());
    static final Duration REFRESH = Duration.ofSeconds(5);

    private volatile Map<String, Long> counts = Map.of();
    private final OutageLog outage = new OutageLog(LOG, "the queue-depth gauges", "keep their last values");
    private final PeriodicTask task = new PeriodicTask();

    @Resource(lookup = JndiNames.SCHEDULER)
    ScheduledExecutorService scheduler;

    @Inject
    AdminStore store;

    @Inject
    DatabaseReachability database;

    public void start() {
        task.start(scheduler, this::refresh, Duration.ZERO, REFRESH);
    }

    public void stop() {
        task.stop();
    }

    /** The cached count of the queue's jobs in {@code state}: "pending", "running", "failed" or "cancelled". */
    public long depth(String queue, String state) {
        return counts.getOrDefault(key(queue, state), 0L);
    }

    private void refresh() {
        outage.attempt(database, () -> counts = store.count(EnumSet.of(JobState.PENDING, JobState.RUNNING,
                JobState.FAILED, JobState.CANCELLED)).stream().collect(Collectors.toMap(count -> key(count.queue(), count.state().name()),
                        AdminStore.StateCount::count)));
    }

    private static String key(String queue, String state) {
        return queue + "\u0000" + state.toLowerCase(Locale.ROOT);
    }
}
