package dev.jobqueue.internal.config;

import java.time.Duration;
import java.util.List;
import java.util.function.DoubleSupplier;

/**
 * How long a job waits before its next attempt. Either exponential ({@code initial * multiplier^(n-1)},
 * capped at {@code max}, spread by ±{@code jitter}) or an explicit list of delays whose last entry
 * repeats.
 */
public sealed interface Backoff {

    /**
     * The delay after failed attempt number {@code attempt} (1-based).
     *
     * @param random a source of numbers in [0, 1), used for jitter
     */
    Duration delayAfter(int attempt, DoubleSupplier random);

    /** Exponential backoff. {@code jitter} is a fraction in [0, 1]: 0.2 spreads each delay by ±20 %. */
    record Exponential(Duration initial, double multiplier, Duration max, double jitter) implements Backoff {

        public Exponential {
            if (initial.isNegative() || max.isNegative()) {
                throw new IllegalArgumentException("delays must not be negative");
            }
            if (multiplier < 1.0) {
                throw new IllegalArgumentException("the multiplier must be at least 1");
            }
            if (jitter < 0.0 || jitter > 1.0) {
                throw new IllegalArgumentException("the jitter must be between 0 and 1");
            }
        }

        @Override
        public Duration delayAfter(int attempt, DoubleSupplier random) {
            double base = initial.toMillis() * Math.pow(multiplier, Math.max(0, attempt - 1));
            double capped = Math.min(base, max.toMillis());
            double spread = 1.0 + jitter * (2.0 * random.getAsDouble() - 1.0);
            return Duration.ofMillis(Math.round(capped * spread));
        }
    }

    /** Fixed delays, Proletarian style: attempt n waits {@code delays[n-1]}, and the last delay repeats. */
    record Fixed(List<Duration> delays) implements Backoff {

        public Fixed {
            if (delays.isEmpty()) {
                throw new IllegalArgumentException("the list of delays must not be empty");
            }
            delays = List.copyOf(delays);
        }

        @Override
        public Duration delayAfter(int attempt, DoubleSupplier random) {
            return delays.get(Math.min(Math.max(attempt, 1), delays.size()) - 1);
        }
    }
}
