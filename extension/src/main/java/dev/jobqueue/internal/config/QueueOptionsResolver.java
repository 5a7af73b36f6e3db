package dev.jobqueue.internal.config;

import dev.jobqueue.internal.Messages;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Resolves a queue's options from configuration. A per-queue key ({@code jobqueue.queue.<name>.<option>})
 * beats a global key ({@code jobqueue.<option>}), which beats the built-in default. Environment variables
 * follow MicroProfile Config's mapping, so {@code JOBQUEUE_QUEUE_EMAIL_MAX_ATTEMPTS} sets
 * {@code jobqueue.queue.email.max-attempts}.
 */
public final class QueueOptionsResolver {

    public static final String PREFIX = "jobqueue.";

    static final int DEFAULT_MAX_ATTEMPTS = 20;
    static final Duration DEFAULT_BACKOFF_INITIAL = Duration.ofSeconds(1);
    static final double DEFAULT_BACKOFF_MULTIPLIER = 2.0;
    static final Duration DEFAULT_BACKOFF_MAX = Duration.ofHours(1);
    static final double DEFAULT_BACKOFF_JITTER = 0.2;
    static final Duration DEFAULT_LEASE = Duration.ofSeconds(60);
    static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(1);
    static final int DEFAULT_CONCURRENCY = 4;
    static final int DEFAULT_BATCH_SIZE = 16;

    private final Function<String, Optional<String>> lookup;

    /** @param lookup reads one raw configuration value, such as {@code Config::getOptionalValue} for strings */
    public QueueOptionsResolver(Function<String, Optional<String>> lookup) {
        this.lookup = lookup;
    }

    /** @throws IllegalArgumentException with a message naming the key and the value, for a bad value */
    public QueueOptions resolve(String queue) {
        return new QueueOptions(queue,
                positiveInt(queue, "max-attempts", DEFAULT_MAX_ATTEMPTS),
                backoff(queue),
                positiveDuration(queue, "lease", DEFAULT_LEASE),
                positiveDuration(queue, "poll-interval", DEFAULT_POLL_INTERVAL),
                positiveInt(queue, "concurrency", DEFAULT_CONCURRENCY),
                positiveInt(queue, "batch-size", DEFAULT_BATCH_SIZE));
    }

    private Backoff backoff(String queue) {
        Optional<Setting> delays = find(queue, "backoff.delays");
        if (delays.isPresent()) {
            Setting setting = delays.get();
            List<Duration> parsed = Arrays.stream(setting.value().split(","))
                    .map(part -> parseDuration(setting, part)).toList();
            return new Backoff.Fixed(parsed);
        }
        return new Backoff.Exponential(
                duration(queue, "backoff.initial", DEFAULT_BACKOFF_INITIAL),
                fraction(queue, "backoff.multiplier", DEFAULT_BACKOFF_MULTIPLIER, 1.0, 1000.0),
                duration(queue, "backoff.max", DEFAULT_BACKOFF_MAX),
                fraction(queue, "backoff.jitter", DEFAULT_BACKOFF_JITTER, 0.0, 1.0));
    }

    private int positiveInt(String queue, String option, int fallback) {
        return find(queue, option).map(setting -> {
            try {
                int value = Integer.parseInt(setting.value().trim());
                if (value < 1) {
                    throw setting.invalid("must be at least 1");
                }
                return value;
            } catch (NumberFormatException e) {
                throw setting.invalid("expected a whole number");
            }
        }).orElse(fallback);
    }

    private double fraction(String queue, String option, double fallback, double min, double max) {
        return find(queue, option).map(setting -> {
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

    private Duration duration(String queue, String option, Duration fallback) {
        return find(queue, option).map(setting -> parseDuration(setting, setting.value())).orElse(fallback);
    }

    private Duration positiveDuration(String queue, String option, Duration fallback) {
        return find(queue, option).map(setting -> {
            Duration value = parseDuration(setting, setting.value());
            if (value.isZero()) {
                throw setting.invalid("must be longer than zero");
            }
            return value;
        }).orElse(fallback);
    }

    private static Duration parseDuration(Setting setting, String text) {
        try {
            return Durations.parse(text);
        } catch (IllegalArgumentException e) {
            throw setting.invalid(e.getMessage());
        }
    }

    private Optional<Setting> find(String queue, String option) {
        String queueKey = PREFIX + "queue." + queue + "." + option;
        Optional<Setting> perQueue = lookup.apply(queueKey).map(value -> new Setting(queueKey, value));
        if (perQueue.isPresent()) {
            return perQueue;
        }
        String globalKey = PREFIX + option;
        return lookup.apply(globalKey).map(value -> new Setting(globalKey, value));
    }

    private record Setting(String key, String value) {
        IllegalArgumentException invalid(String problem) {
            return new IllegalArgumentException(Messages.badConfigValue(key, value, problem));
        }
    }
}
