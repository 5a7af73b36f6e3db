package dev.jobqueue.internal.task;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/** One repeating background task: started once, stopped at shutdown. Holds nothing but its schedule. */
public final class PeriodicTask {

    private volatile ScheduledFuture<?> future;

    /** Runs {@code work} every {@code period}, the first time after {@code initialDelay}. */
    public void start(ScheduledExecutorService scheduler, Runnable work, Duration initialDelay, Duration period) {
        future = scheduler.scheduleWithFixedDelay(work, initialDelay.toMillis(), period.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    public boolean isStarted() {
        return future != null;
    }

    public void stop() {
        ScheduledFuture<?> current = future;
        if (current != null) {
            current.cancel(false);
        }
    }
}
