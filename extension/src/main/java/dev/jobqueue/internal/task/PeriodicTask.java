package dev.jobqueue.internal.task;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Logger;

/**
 * One repeating background task: started once, stopped at shutdown. A stop waits for a run in progress to end,
 * so that no run is left using the application (its beans, its transactions) while the server takes it down.
 */
public final class PeriodicTask {

    private static final Logger LOG = Logger.getLogger(PeriodicTask.class.getName());
    /** The longest a stop waits for a run in progress; one stuck on an unreachable database is left behind. */
    static final Duration STOP_WAIT = Duration.ofSeconds(10);

    private final ReentrantLock running = new ReentrantLock();
    private volatile ScheduledFuture<?> future;
    private volatile boolean stopped;

    /**
     * Runs {@code work} {@code period} after each run ends, the first time after {@code initialDelay}: a slow run
     * delays the next, and runs never pile up behind a slow database.
     */
    public void start(ScheduledExecutorService scheduler, Runnable work, Duration initialDelay, Duration period) {
        stopped = false;
        future = scheduler.scheduleWithFixedDelay(() -> runUnlessStopped(work), initialDelay.toMillis(),
                period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Starts {@code work} every {@code period} however long each run takes, the first time after
     * {@code initialDelay}; a run that overruns its period is followed at once by the next, never overlapped.
     * For work whose period is a promise, as the lease keeper's is.
     */
    public void startAtFixedRate(ScheduledExecutorService scheduler, Runnable work, Duration initialDelay,
            Duration period) {
        stopped = false;
        future = scheduler.scheduleAtFixedRate(() -> runUnlessStopped(work), initialDelay.toMillis(),
                period.toMillis(), TimeUnit.MILLISECONDS);
    }

    public boolean isStarted() {
        return future != null;
    }

    /** Cancels the later runs and waits, up to {@link #STOP_WAIT}, for a run in progress to end. */
    public void stop() {
        stopped = true;
        ScheduledFuture<?> current = future;
        if (current == null) {
            return;
        }
        current.cancel(false);
        try {
            if (running.tryLock(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                running.unlock();
            } else {
                LOG.warning("jobqueue: a background task still runs " + STOP_WAIT.toSeconds() + " s after it was"
                        + " stopped; the shutdown goes on without it");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void runUnlessStopped(Runnable work) {
        running.lock();
        try {
            if (!stopped) {
                work.run();
            }
        } finally {
            running.unlock();
        }
    }
}
