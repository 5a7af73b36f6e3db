package dev.jobqueue.internal.config;

import java.util.Set;
import java.util.stream.Collectors;

/**
 * Every MicroProfile Config key jobqueue reads, by scope. {@link ConfigKeyCheck} refuses any other {@code jobqueue.}
 * key in the application's own file, and the configuration reference, {@code docs/reference/configuration.md},
 * lists exactly these.
 */
public final class ConfigKeys {

    public static final String PREFIX = "jobqueue.";
    public static final String QUEUE_PREFIX = PREFIX + "queue.";
    public static final String SCHEDULE_PREFIX = PREFIX + "schedule.";

    /** The keys for the whole node. */
    public static final Set<String> NODE = Set.of(NodeSettings.SHUTDOWN_GRACE, NodeSettings.SCHEMA_CREATE,
            NodeSettings.NOTIFY_ENABLED, NodeSettings.LISTEN_DATASOURCE, NodeSettings.ADMIN_ENABLED,
            NodeSettings.DASHBOARD_ENABLED, NodeSettings.SHOW_PAYLOADS, NodeSettings.UNDECLARED_SCHEDULE_GRACE,
            NodeSettings.BULK_CHUNK_SIZE,
            NodeName.KEY);

    /** A queue's options, each read as {@code jobqueue.queue.<queue>.<option>}. */
    public static final Set<String> QUEUE_OPTIONS = Set.of("max-attempts", "backoff.initial", "backoff.multiplier",
            "backoff.max", "backoff.jitter", "backoff.delays", "lease", "max-execute-time", "poll-interval",
            "concurrency", "batch-size", "jobs-per-call", QueueOptionsResolver.JOBS_PER_TRANSACTION, "enabled", "success-on", "transactional", "retention",
            QueueOptionsResolver.MAX_PAYLOAD_SIZE, "strict-payload", QueueOptionsResolver.RATE_LIMIT,
            QueueOptionsResolver.MAX_RUNNING, QueueOptionsResolver.TRACE_PARENT, QueueOptionsResolver.PRODUCER_ONLY);

    /**
     * The queue options read per queue only, never as {@code jobqueue.<option>}: each must fit one consumer's method
     * (a batch consumer takes a list and must be transactional), marks one queue, or limits one queue's use of
     * what it calls.
     */
    public static final Set<String> PER_QUEUE_ONLY = Set.of("jobs-per-call", QueueOptionsResolver.JOBS_PER_TRANSACTION,
            "transactional",
            QueueOptionsResolver.RATE_LIMIT, QueueOptionsResolver.MAX_RUNNING, QueueOptionsResolver.PRODUCER_ONLY);

    /** The queue options also read as {@code jobqueue.<option>}, a default for every queue. */
    public static final Set<String> GLOBAL_OPTIONS = QUEUE_OPTIONS.stream()
            .filter(option -> !PER_QUEUE_ONLY.contains(option)).collect(Collectors.toUnmodifiableSet());

    /** A {@code @Recurring} schedule's options, each read as {@code jobqueue.schedule.<name>.<option>}. */
    public static final Set<String> SCHEDULE_OPTIONS = Set.of("cron", "zone", "missed", "missed-after",
            "catch-up-limit", "overlap", "enabled");

    private ConfigKeys() {
    }
}
