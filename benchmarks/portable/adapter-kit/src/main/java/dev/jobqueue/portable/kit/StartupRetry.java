package dev.jobqueue.portable.kit;

import java.lang.System.Logger.Level;
import java.util.concurrent.Callable;

/** Start-up steps of a plain-JVM adapter, tried until they succeed: PostgreSQL may be down when the process starts. */
public final class StartupRetry {

    private static final System.Logger LOG = System.getLogger(StartupRetry.class.getName());

    private StartupRetry() {
    }

    /**
     * Runs the step once a second until it returns.
     *
     * @param what the step, for the log
     * @param step the step
     * @param <T> what it returns
     * @return what it returned
     * @throws InterruptedException if interrupted while waiting
     */
    public static <T> T untilDone(String what, Callable<T> step) throws InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                return step.call();
            } catch (Exception e) {
                LOG.log(Level.WARNING, "could not " + what + " (attempt " + attempt + "), trying again in 1 s: " + e);
                Thread.sleep(1_000);
            }
        }
    }
}
