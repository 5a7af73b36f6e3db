package dev.jobqueue.internal.watch;

import dev.jobqueue.internal.JndiNames;
import dev.jobqueue.internal.config.QueueOptions;
import dev.jobqueue.internal.dispatch.RunningJobs;
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
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * One task per node that logs, at WARNING and with its stack trace, every consumer running longer than its
 * queue's {@code max-execute-time}: once per job, when it crosses the threshold. It also counts them.
 */
@ApplicationScoped
public class StuckJobMonitor {

    private static final Logger LOG = Logger.getLogger(StuckJobMonitor.class.getName());
    private static final long MIN_PERIOD_MILLIS = 100;
    private static final long MAX_PERIOD_MILLIS = 5_000;

    @Inject
    @JobQueueClock
    Clock clock;

    private volatile Map<String, Long> stuckByQueue = Map.of();
    private final PeriodicTask task = new PeriodicTask();

    @Resource(lookup = JndiNames.SCHEDULER)
    ScheduledExecutorService scheduler;

    @Inject
    RunningJobs running;

    /** Starts the task; it runs four times per shortest threshold, between every 0.1 s and every 5 s. */
    public void start(Function<String, QueueOptions> optionsOf, Duration shortestMaxExecuteTime) {
        long period = Math.max(MIN_PERIOD_MILLIS, Math.min(shortestMaxExecuteTime.toMillis() / 4, MAX_PERIOD_MILLIS));
        task.start(scheduler, () -> check(queue -> optionsOf.apply(queue).maxExecuteTime()),
                Duration.ofMillis(period), Duration.ofMillis(period));
    }

    public void stop() {
        task.stop();
    }

    /** How many of the queue's consumers are running past their threshold, as of the last check. */
    public long stuckCount(String queue) {
        return stuckByQueue.getOrDefault(queue, 0L);
    }

    private void check(Function<String, Duration> maxExecuteTimeOf) {
        try {
            Instant now = clock.instant();
            List<RunningJobs.Entry> over = StuckJobs.over(running.snapshot(), now, maxExecuteTimeOf);
            stuckByQueue = over.stream().collect(Collectors.groupingBy(entry -> entry.job().queue(),
                    Collectors.counting()));
            for (RunningJobs.Entry entry : over) {
                if (running.markWarnedStuck(entry.job())) {
                    warn(entry, now, maxExecuteTimeOf.apply(entry.job().queue()));
                }
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "jobqueue: the stuck-job monitor failed a check and keeps running", e);
        }
    }

    private static void warn(RunningJobs.Entry entry, Instant now, Duration threshold) {
        ConsumerStackTrace trace = new ConsumerStackTrace(entry.thread());
        LOG.log(Level.WARNING, "jobqueue: job " + entry.job().id() + " on queue " + entry.job().queue()
                + " has run for " + Duration.between(entry.startedAt(), now) + ", longer than its max-execute-time of "
                + threshold + ", on thread " + entry.thread().getName() + "; its stack follows", trace);
    }

    /** The stack of a consumer's thread, as captured when it was found stuck. Not an error that was thrown. */
    static final class ConsumerStackTrace extends Throwable {

        private static final long serialVersionUID = 1L;

        ConsumerStackTrace(Thread thread) {
            super("stack of " + thread.getName(), null, false, true);
            setStackTrace(thread.getStackTrace());
        }
    }
}
