package dev.jobqueue.it;

import java.time.Duration;

/** Waits for asynchronous work in tests: polls a condition until it holds or the timeout passes. */
public final class Await {

    private static final long POLL_MILLIS = 10;

    /** A condition that may query the database. */
    @FunctionalInterface
    public interface Condition {
        boolean holds() throws Exception;
    }

    private Await() {
    }

    /** True as soon as the condition holds; false if it still does not after {@code timeout}. */
    public static boolean until(Condition condition, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.holds()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(POLL_MILLIS);
        }
        return true;
    }
}
