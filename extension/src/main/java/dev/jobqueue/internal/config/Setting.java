package dev.jobqueue.internal.config;

import dev.jobqueue.internal.Messages;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * One configuration value and the key, or {@code @Consumer} attribute, it was read from, parsed into an option's
 * type. A bad value is refused with a message that names both.
 */
record Setting(String key, String value) {

    IllegalArgumentException invalid(String problem) {
        return new IllegalArgumentException(Messages.badConfigValue(key, value, problem));
    }

    /** A whole number of at least {@code min}. */
    int wholeNumber(int min, String tooSmall) {
        try {
            int number = Integer.parseInt(value.trim());
            if (number < min) {
                throw invalid(tooSmall);
            }
            return number;
        } catch (NumberFormatException e) {
            throw invalid("expected a whole number");
        }
    }

    double number(double min, double max) {
        try {
            double number = Double.parseDouble(value.trim());
            if (number < min || number > max) {
                throw invalid("must be between " + min + " and " + max);
            }
            return number;
        } catch (NumberFormatException e) {
            throw invalid("expected a number");
        }
    }

    /** The value read by {@code parser}, whose message names what it expects. */
    <T> T parsed(Function<String, T> parser) {
        try {
            return parser.apply(value);
        } catch (IllegalArgumentException e) {
            throw invalid(e.getMessage());
        }
    }

    boolean onOff() {
        return parsed(Switches::parse);
    }

    Duration duration() {
        return duration(value);
    }

    /** One of the durations this value lists, such as {@code backoff.delays}'s. */
    Duration duration(String text) {
        try {
            return Durations.parse(text);
        } catch (IllegalArgumentException e) {
            throw invalid(e.getMessage());
        }
    }

    Duration positiveDuration() {
        Duration duration = duration();
        if (duration.isZero()) {
            throw invalid("must be longer than zero");
        }
        return duration;
    }

    PayloadLimit payloadLimit() {
        try {
            return new PayloadLimit(Sizes.parse(value), key);
        } catch (IllegalArgumentException e) {
            throw invalid(e.getMessage());
        }
    }

    /** The exception types a comma-separated list names, loaded by {@code classLoader}. */
    List<Class<? extends Throwable>> exceptionTypes(ClassLoader classLoader) {
        List<Class<? extends Throwable>> types = new ArrayList<>();
        for (String name : value.split(",")) {
            String trimmed = name.trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            Class<?> type;
            try {
                type = Class.forName(trimmed, false, classLoader);
            } catch (ClassNotFoundException | LinkageError e) {
                throw invalid("no exception class " + trimmed + " is visible to the application");
            }
            if (!Throwable.class.isAssignableFrom(type)) {
                throw invalid(trimmed + " is not an exception type");
            }
            types.add(type.asSubclass(Throwable.class));
        }
        return types;
    }
}
