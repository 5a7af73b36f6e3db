package dev.jobqueue.internal.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Finds one queue's options in the three places their values can come from, in order of precedence: the
 * per-queue key, the global key, the value on {@code @Consumer}; each read with its built-in default.
 */
final class OptionSources {

    private final Function<String, Optional<String>> lookup;
    private final String queue;
    private final Map<String, String> annotated;
    private final String source;

    OptionSources(Function<String, Optional<String>> lookup, String queue, Map<String, String> annotated,
            String source) {
        this.lookup = lookup;
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

    int positiveInt(String option, int fallback) {
        return find(option).map(setting -> setting.wholeNumber(1, "must be at least 1")).orElse(fallback);
    }

    /** A whole number of at least 0, where 0 means "no limit"; 0 when not set. */
    int count(String option) {
        return find(option).map(setting -> setting.wholeNumber(0, "must be at least 0 (0 for no limit)")).orElse(0);
    }

    double number(String option, double fallback, double min, double max) {
        return find(option).map(setting -> setting.number(min, max)).orElse(fallback);
    }

    /** An option read by {@code parser}, whose message names what it expects; {@code fallback} when not set. */
    <T> T parsed(String option, Function<String, T> parser, T fallback) {
        return find(option).map(setting -> setting.parsed(parser)).orElse(fallback);
    }

    boolean bool(String option, boolean fallback) {
        return find(option).map(Setting::onOff).orElse(fallback);
    }

    Duration duration(String option, Duration fallback) {
        return find(option).map(Setting::duration).orElse(fallback);
    }

    Duration positiveDuration(String option, Duration fallback) {
        return find(option).map(Setting::positiveDuration).orElse(fallback);
    }

    List<Class<? extends Throwable>> exceptionTypes(String option, ClassLoader classLoader) {
        return find(option).map(setting -> setting.exceptionTypes(classLoader)).orElse(List.of());
    }
}
