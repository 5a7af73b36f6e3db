package dev.jobqueue.internal.dispatch;

import dev.jobqueue.internal.JndiNames;
import dev.jobqueue.internal.store.DatabaseReachability;
import dev.jobqueue.internal.store.ProgressStore;
import dev.jobqueue.internal.task.OutageLog;
import dev.jobqueue.internal.task.PeriodicTask;
import dev.jobqueue.internal.time.JobQueueClock;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.logging.Logger;

/**
 * The progress consumers report ({@link dev.jobqueue.JobContext#progress}), written outside their transactions at
 * most once every {@link #EVERY} per job: a report replaces the job's last one not yet written, and a round on the
 * scheduler writes what is waiting, each job in a transaction of its own, so that no round holds two rows at once
 * (a job's own transaction may hold its row). The rounds start at the first report, so a node whose consumers
 * never report runs none.
 */
@ApplicationScoped
public class ProgressLog {

    /** How often the waiting reports are written. */
    static final Duration EVERY = Duration.ofSeconds(1);

    private static final Logger LOG = Logger.getLogger(ProgressLog.class.getName());

    /** A report waiting to be written. */
    private record Report(String id, int attempt, double fraction, String note, Instant at) {
    }

    private final Map<String, Report> waiting = new ConcurrentHashMap<>();
    private final PeriodicTask task = new PeriodicTask();
    private final OutageLog outage = new OutageLog(LOG, "the progress writer", "keeps the latest reports");
    private volatile boolean stopped;

    @Resource(lookup = JndiNames.SCHEDULER)
    ScheduledExecutorService scheduler;

    @Inject
    ProgressStore store;

    @Inject
    DatabaseReachability database;

    @Inject
    @JobQueueClock
    Clock clock;

    /** Keeps the report of job {@code id} in {@code attempt} for the next round. */
    void report(String id, int attempt, double fraction, String note) {
        if (stopped) {
            return;
        }
        waiting.put(id, new Report(id, attempt, fraction, note, clock.instant()));
        if (!task.isStarted()) {
            startOnce();
        }
    }

    /** Stops the rounds at shutdown; what is waiting is not written. */
    public void stop() {
        stopped = true;
        task.stop();
    }

    private synchronized void startOnce() {
        if (!task.isStarted() && !stopped) {
            task.start(scheduler, this::writeWaiting, EVERY, EVERY);
        }
    }

    /** One round: writes each waiting report, the latest of its job. */
    void writeWaiting() {
        if (waiting.isEmpty()) {
            return;
        }
        outage.attempt(database, () -> {
            for (Report report : List.copyOf(waiting.values())) {
                store.write(report.id(), report.attempt(), report.fraction(), report.note(), report.at());
                // A newer report that came meanwhile stays for the next round.
                waiting.remove(report.id(), report);
            }
        });
    }
}
