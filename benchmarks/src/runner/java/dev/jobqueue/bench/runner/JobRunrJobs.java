package dev.jobqueue.bench.runner;

/** The job JobRunr runs: JobRunr calls it by its class and method name, so both are public. */
public final class JobRunrJobs {

    private JobRunrJobs() {
    }

    /** A no-op job, as in the other drains. */
    public static void noop(int sequence) {
        PeerDrain.RAN.incrementAndGet();
    }
}
