package dev.jobqueue.portable.jobqueue;

import java.util.Arrays;

/** The three ways jobqueue runs in the harness, each a system of its own there, each on a queue of its own. */
enum Variant {
    /** The default consumer: the job's work and its DONE commit in one transaction. */
    TRANSACTIONAL("jobqueue", BenchConsumers.TRANSACTIONAL),
    /** The same with {@code jobsPerTransaction = 10}: up to ten jobs share that transaction, each in its own call. */
    GROUPED("jobqueue-jpt", BenchConsumers.GROUPED),
    /** {@code transactional = false}: at least once, as pg-boss and River. */
    NON_TRANSACTIONAL("jobqueue-nontx", BenchConsumers.NON_TRANSACTIONAL);

    private final String system;
    private final String queue;

    Variant(String system, String queue) {
        this.system = system;
        this.queue = queue;
    }

    String system() {
        return system;
    }

    String queue() {
        return queue;
    }

    static Variant of(String system) {
        return Arrays.stream(values()).filter(variant -> variant.system.equals(system)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("BENCH_SYSTEM must be one of jobqueue, jobqueue-jpt"
                        + " and jobqueue-nontx, not " + system));
    }
}
