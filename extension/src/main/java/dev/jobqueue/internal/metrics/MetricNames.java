package dev.jobqueue.internal.metrics;

/**
 * The name of every jobqueue metric, each tagged with {@code queue}. They are registered in the application
 * registry; in Prometheus format a counter named {@code jobqueue.enqueued} appears as
 * {@code jobqueue_enqueued_total}.
 */
public final class MetricNames {

    /** Counter: jobs put, counted when their transaction commits. */
    public static final String ENQUEUED = "jobqueue.enqueued";
    /** Counter: attempts finished, tagged {@code outcome} = {@code done}, {@code retried} or {@code failed}. */
    public static final String FINISHED = "jobqueue.finished";
    /** Timer: how long consumers ran. */
    public static final String EXECUTION_TIME = "jobqueue.execution.time";
    /** Timer: from when a job was put, or last became due, to when its consumer started. */
    public static final String WAIT_TIME = "jobqueue.wait.time";
    /** Gauge: jobs in the table by {@code state} = {@code pending}, {@code running} or {@code failed}; refreshed every few seconds. */
    public static final String DEPTH = "jobqueue.depth";
    /** Gauge: consumers on this node running past their {@code max-execute-time}. */
    public static final String STUCK = "jobqueue.stuck";
    /** Counter: jobs whose expired lease this node took back. */
    public static final String LEASES_RESCUED = "jobqueue.leases.rescued";
    /**
     * Counter: claims of a queue with cluster-wide limits that took fewer jobs than this node could run, or none,
     * tagged {@code limit} = {@code rate-limit}, {@code max-running} or {@code pause} (an admin's pause, or a
     * consumer's backoff).
     */
    public static final String CLAIMS_HELD = "jobqueue.claims.held";
    public static final String LIMIT_TAG = "limit";
    /** Occurrences of recurring schedules, tagged with the schedule and the outcome: put, missed or overlapped. */
    public static final String OCCURRENCES = "jobqueue.schedule.occurrences";
    public static final String SCHEDULE_TAG = "schedule";

    public static final String QUEUE_TAG = "queue";
    /**
     * The {@code queue} tag of the metrics of every queue this application neither consumes nor marks
     * {@code producer-only}. It cannot be a queue's name, so it never mixes with one.
     */
    public static final String OTHER_QUEUES = "(other)";
    public static final String OUTCOME_TAG = "outcome";
    public static final String STATE_TAG = "state";

    private MetricNames() {
    }
}
