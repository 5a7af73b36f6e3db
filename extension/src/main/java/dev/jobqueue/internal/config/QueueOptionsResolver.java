package dev.jobqueue.internal.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Resolves a queue's options. A per-queue key ({@code jobqueue.queue.<name>.<option>}) beats a global key
 * ({@code jobqueue.<option>}, for the options in {@link ConfigKeys#GLOBAL_OPTIONS}), which beats the value on
 * {@code @Consumer}, which beats the built-in default.
 * Environment variables follow MicroProfile Config's mapping, so {@code JOBQUEUE_QUEUE_EMAIL_MAX_ATTEMPTS}
 * sets {@code jobqueue.queue.email.max-attempts}.
 */
public final class QueueOptionsResolver {

    /** Marks a queue this application puts jobs on but has no consumer for, so per-queue keys for it are expected. */
    public static final String PRODUCER_ONLY = "producer-only";

    /** The option that limits a payload's size; see {@link #unconsumedPayloadLimit()}. */
    public static final String MAX_PAYLOAD_SIZE = "max-payload-size";

    /** The cluster-wide limits: starts per period, and jobs RUNNING at once on all nodes. */
    public static final String RATE_LIMIT = "rate-limit";
    public static final String MAX_RUNNING = "max-running";

    /** How many waiting jobs of a consumer of one job per call run in one transaction. */
    public static final String JOBS_PER_TRANSACTION = "jobs-per-transaction";

    /** How a consumer call's span relates to the span that put the job. */
    public static final String TRACE_PARENT = "trace-parent";

    static final int DEFAULT_MAX_ATTEMPTS = 20;
    static final Duration DEFAULT_BACKOFF_INITIAL = Duration.ofSeconds(1);
    static final double DEFAULT_BACKOFF_MULTIPLIER = 2.0;
    static final Duration DEFAULT_BACKOFF_MAX = Duration.ofHours(1);
    static final double DEFAULT_BACKOFF_JITTER = 0.2;
    static final Duration DEFAULT_LEASE = Duration.ofSeconds(60);
    static final Duration DEFAULT_MAX_EXECUTE_TIME = Duration.ofMinutes(5);
    static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(1);
    static final int DEFAULT_CONCURRENCY = 4;
    static final int DEFAULT_BATCH_SIZE = 64;
    static final Duration DEFAULT_RETENTION = Duration.ofDays(1);
    static final long DEFAULT_MAX_PAYLOAD_SIZE = 1L << 20;

    private final Function<String, Optional<String>> lookup;
    private final ClassLoader classLoader;

    /**
     * @param lookup      reads one raw configuration value, such as {@code Config::getOptionalValue} for strings
     * @param classLoader loads the exception types named in {@code success-on}
     */
    public QueueOptionsResolver(Function<String, Optional<String>> lookup, ClassLoader classLoader) {
        this.lookup = lookup;
        this.classLoader = classLoader;
    }

    /** Resolves a queue's options from configuration and defaults alone. */
    public QueueOptions resolve(String queue) {
        return resolve(queue, Map.of(), "");
    }

    /**
     * Resolves a queue's options.
     *
     * @param annotated values set on {@code @Consumer}, by option name
     * @param source    where those values come from, for error messages
     * @throws IllegalArgumentException with a message naming the key and the value, for a bad value
     */
    public QueueOptions resolve(String queue, Map<String, String> annotated, String source) {
        OptionSources sources = new OptionSources(lookup, queue, annotated, source);
        List<String> problems = new ArrayList<>();
        QueueOptions options = new QueueOptions(queue,
                checked(problems, () -> sources.positiveInt("max-attempts", DEFAULT_MAX_ATTEMPTS), 1),
                checked(problems, () -> backoff(sources), null),
                checked(problems, () -> sources.positiveDuration("lease", DEFAULT_LEASE), null),
                checked(problems, () -> sources.positiveDuration("max-execute-time", DEFAULT_MAX_EXECUTE_TIME), null),
                checked(problems, () -> sources.positiveDuration("poll-interval", DEFAULT_POLL_INTERVAL), null),
                checked(problems, () -> sources.positiveInt("concurrency", DEFAULT_CONCURRENCY), 1),
                checked(problems, () -> sources.positiveInt("batch-size", DEFAULT_BATCH_SIZE), 1),
                checked(problems, () -> sources.positiveInt("jobs-per-call", 1), 1),
                checked(problems, () -> sources.positiveInt(JOBS_PER_TRANSACTION, 1), 1),
                checked(problems, () -> sources.bool("enabled", true), true),
                checked(problems, () -> sources.exceptionTypes("success-on", classLoader), List.of()),
                checked(problems, () -> sources.bool("transactional", true), true),
                checked(problems, () -> sources.duration("retention", DEFAULT_RETENTION), null),
                checked(problems, () -> payloadLimit(sources.find(MAX_PAYLOAD_SIZE)), null),
                checked(problems, () -> sources.bool("strict-payload", false), false),
                new QueueLimits(checked(problems, () -> sources.parsed(RATE_LIMIT, RateLimit::parse, null), null),
                        checked(problems, () -> sources.count(MAX_RUNNING), 0)),
                checked(problems, () -> sources.parsed(TRACE_PARENT, TraceParent::parse, TraceParent.CHILD),
                        TraceParent.CHILD));
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("\n", problems));
        }
        return options;
    }

    /**
     * Whether {@code jobqueue.queue.<queue>.producer-only} marks the queue as one this application only puts jobs on.
     *
     * @throws IllegalArgumentException with a message naming the key and the value, for a bad value
     */
    public boolean producerOnly(String queue) {
        String key = ConfigKeys.QUEUE_PREFIX + queue + "." + PRODUCER_ONLY;
        return lookup.apply(key).map(value -> new Setting(key, value).onOff()).orElse(false);
    }

    /**
     * The payload limit of a queue that no {@code @Consumer} of this application consumes and that is not marked
     * {@code producer-only}: the global key {@code jobqueue.max-payload-size}, or the default. Per-queue keys are
     * not read, so that a put on an arbitrary queue name costs no configuration lookup.
     *
     * @throws IllegalArgumentException with a message naming the key and the value, for a bad value
     */
    public PayloadLimit unconsumedPayloadLimit() {
        String key = ConfigKeys.PREFIX + MAX_PAYLOAD_SIZE;
        return payloadLimit(lookup.apply(key).map(value -> new Setting(key, value)));
    }

    private static PayloadLimit payloadLimit(Optional<Setting> found) {
        return found.map(Setting::payloadLimit)
                .orElse(new PayloadLimit(DEFAULT_MAX_PAYLOAD_SIZE, ConfigKeys.PREFIX + MAX_PAYLOAD_SIZE + " (the default)"));
    }

    /**
     * Evaluates one option. A bad value is noted and {@code standIn} takes its place until every option has
     * been read, so that all bad values are reported at once; the options are then thrown away.
     */
    private static <T> T checked(List<String> problems, Supplier<T> option, T standIn) {
        try {
            return option.get();
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
            return standIn;
        }
    }

    private static Backoff backoff(OptionSources sources) {
        Optional<Setting> delays = sources.find("backoff.delays");
        if (delays.isPresent()) {
            Setting setting = delays.get();
            List<Duration> parsed = Arrays.stream(setting.value().split(",")).map(setting::duration).toList();
            return new Backoff.Fixed(parsed);
        }
        return new Backoff.Exponential(
                sources.duration("backoff.initial", DEFAULT_BACKOFF_INITIAL),
                sources.number("backoff.multiplier", DEFAULT_BACKOFF_MULTIPLIER, 1.0, 1000.0),
                sources.duration("backoff.max", DEFAULT_BACKOFF_MAX),
                sources.number("backoff.jitter", DEFAULT_BACKOFF_JITTER, 0.0, 1.0));
    }
}
