package dev.jobqueue.internal.config;

import dev.jobqueue.internal.Messages;
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
        Sources sources = new Sources(queue, annotated, source);
        List<String> problems = new ArrayList<>();
        QueueOptions options = new QueueOptions(queue,
                checked(problems, () -> positiveInt(sources, "max-attempts", DEFAULT_MAX_ATTEMPTS), 1),
                checked(problems, () -> backoff(sources), null),
                checked(problems, () -> positiveDuration(sources, "lease", DEFAULT_LEASE), null),
                checked(problems, () -> positiveDuration(sources, "max-execute-time", DEFAULT_MAX_EXECUTE_TIME), null),
                checked(problems, () -> positiveDuration(sources, "poll-interval", DEFAULT_POLL_INTERVAL), null),
                checked(problems, () -> positiveInt(sources, "concurrency", DEFAULT_CONCURRENCY), 1),
                checked(problems, () -> positiveInt(sources, "batch-size", DEFAULT_BATCH_SIZE), 1),
                checked(problems, () -> positiveInt(sources, "jobs-per-call", 1), 1),
                checked(problems, () -> positiveInt(sources, JOBS_PER_TRANSACTION, 1), 1),
                checked(problems, () -> bool(sources, "enabled", true), true),
                checked(problems, () -> exceptionTypes(sources, "success-on"), List.of()),
                checked(problems, () -> bool(sources, "transactional", true), true),
                checked(problems, () -> duration(sources, "retention", DEFAULT_RETENTION), null),
                checked(problems, () -> payloadLimit(sources.find(MAX_PAYLOAD_SIZE)), null),
                checked(problems, () -> bool(sources, "strict-payload", false), false),
                new QueueLimits(checked(problems, () -> parsed(sources, RATE_LIMIT, RateLimit::parse, null), null),
                        checked(problems, () -> count(sources, MAX_RUNNING), 0)),
                checked(problems, () -> parsed(sources, TRACE_PARENT, TraceParent::parse, TraceParent.CHILD),
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
        return lookup.apply(key).map(value -> parseSwitch(new Setting(key, value))).orElse(false);
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
        return found.map(setting -> {
            try {
                return new PayloadLimit(Sizes.parse(setting.value()), setting.key());
            } catch (IllegalArgumentException e) {
                throw setting.invalid(e.getMessage());
            }
        }).orElse(new PayloadLimit(DEFAULT_MAX_PAYLOAD_SIZE, ConfigKeys.PREFIX + MAX_PAYLOAD_SIZE + " (the default)"));
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

    private Backoff backoff(Sources sources) {
        Optional<Setting> delays = sources.find("backoff.delays");
        if (delays.isPresent()) {
            Setting setting = delays.get();
            List<Duration> parsed = Arrays.stream(setting.value().split(","))
                    .map(part -> parseDuration(setting, part)).toList();
            return new Backoff.Fixed(parsed);
        }
        return new Backoff.Exponential(
                duration(sources, "backoff.initial", DEFAULT_BACKOFF_INITIAL),
                number(sources, "backoff.multiplier", DEFAULT_BACKOFF_MULTIPLIER, 1.0, 1000.0),
                duration(sources, "backoff.max", DEFAULT_BACKOFF_MAX),
                number(sources, "backoff.jitter", DEFAULT_BACKOFF_JITTER, 0.0, 1.0));
    }

    private static int positiveInt(Sources sources, String option, int fallback) {
        return wholeNumber(sources, option, fallback, 1, "must be at least 1");
    }

    /** A whole number of at least {@code min}; {@code fallback} when not set. */
    private static int wholeNumber(Sources sources, String option, int fallback, int min, String tooSmall) {
        return sources.find(option).map(setting -> {
            try {
                int value = Integer.parseInt(setting.value().trim());
                if (value < min) {
                    throw setting.invalid(tooSmall);
                }
                return value;
            } catch (NumberFormatException e) {
                throw setting.invalid("expected a whole number");
            }
        }).orElse(fallback);
    }

    /** An option read by {@code parser}, whose message names what it expects; {@code fallback} when not set. */
    private static <T> T parsed(Sources sources, String option, Function<String, T> parser, T fallback) {
        return sources.find(option).map(setting -> {
            try {
                return parser.apply(setting.value());
            } catch (IllegalArgumentException e) {
                throw setting.invalid(e.getMessage());
            }
        }).orElse(fallback);
    }

    /** A whole number of at least 0, where 0 means "no limit"; 0 when not set. */
    private static int count(Sources sources, String option) {
        return wholeNumber(sources, option, 0, 0, "must be at least 0 (0 for no limit)");
    }

    private static double number(Sources sources, String option, double fallback, double min, double max) {
        return sources.find(option).map(setting -> {
            try {
                double value = Double.parseDouble(setting.value().trim());
                if (value < min || value > max) {
                    throw setting.invalid("must be between " + min + " and " + max);
                }
                return value;
            } catch (NumberFormatException e) {
                throw setting.invalid("expected a number");
            }
        }).orElse(fallback);
    }

    private static boolean bool(Sources sources, String option, boolean fallback) {
        return sources.find(option).map(QueueOptionsResolver::parseSwitch).orElse(fallback);
    }

    private static boolean parseSwitch(Setting setting) {
        try {
            return Switches.parse(setting.value());
        } catch (IllegalArgumentException e) {
            throw setting.invalid(e.getMessage());
        }
    }

    private static Duration duration(Sources sources, String option, Duration fallback) {
        return sources.find(option).map(setting -> parseDuration(setting, setting.value())).orElse(fallback);
    }

    private static Duration positiveDuration(Sources sources, String option, Duration fallback) {
        return sources.find(option).map(setting -> {
            Duration value = parseDuration(setting, setting.value());
            if (value.isZero()) {
                throw setting.invalid("must be longer than zero");
            }
            return value;
        }).orElse(fallback);
    }

    private List<Class<? extends Throwable>> exceptionTypes(Sources sources, String option) {
        Optional<Setting> found = sources.find(option);
        if (found.isEmpty()) {
            return List.of();
        }
        Setting setting = found.get();
        List<Class<? extends Throwable>> types = new ArrayList<>();
        for (String name : setting.value().split(",")) {
            String trimmed = name.trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            Class<?> type;
            try {
                type = Class.forName(trimmed, false, classLoader);
            } catch (ClassNotFoundException | LinkageError e) {
                throw setting.invalid("no exception class " + trimmed + " is visible to the application");
            }
            if (!Throwable.class.isAssignableFrom(type)) {
                throw setting.invalid(trimmed + " is not an exception type");
            }
            types.add(type.asSubclass(Throwable.class));
        }
        return types;
    }

    private static Duration parseDuration(Setting setting, String text) {
        try {
            return Durations.parse(text);
        } catch (IllegalArgumentException e) {
            throw setting.invalid(e.getMessage());
        }
    }

    /** The three places an option's value can come from, in order of precedence. */
    private final class Sources {
        private final String queue;
        private final Map<String, String> annotated;
        private final String source;

        Sources(String queue, Map<String, String> annotated, String source) {
            this.queue = queue;
            this.annotated = annotated;
            this.source = source;
        }

        Optional<Setting> find(String option) {
            String queueKey = ConfigKeys.QUEUE_PREFIX + queue + "." + option;
            Optional<String> perQueue = lookup.apply(queueKey);
            if (perQueue.isPresent()) {
                return Optional.of(new Setting(queueKey, perQueue.get()));
            }
            if (ConfigKeys.GLOBAL_OPTIONS.contains(option)) {
                String globalKey = ConfigKeys.PREFIX + option;
                Optional<String> global = lookup.apply(globalKey);
                if (global.isPresent()) {
                    return Optional.of(new Setting(globalKey, global.get()));
                }
            }
            return Optional.ofNullable(annotated.get(option))
                    .map(value -> new Setting(option + " on @Consumer " + source, value));
        }
    }

    private record Setting(String key, String value) {
        IllegalArgumentException invalid(String problem) {
            return new IllegalArgumentException(Messages.badConfigValue(key, value, problem));
        }
    }
}
