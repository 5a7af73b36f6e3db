package dev.jobqueue.internal.cron;

import dev.jobqueue.MissedOccurrences;
import dev.jobqueue.OverlapPolicy;
import dev.jobqueue.Recurring;
import dev.jobqueue.internal.Messages;
import dev.jobqueue.internal.QueueNames;
import dev.jobqueue.internal.config.ConfigKeys;
import dev.jobqueue.internal.config.Durations;
import dev.jobqueue.internal.config.Switches;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * Reads a {@link Recurring} declaration with its MicroProfile Config overrides,
 * {@code jobqueue.schedule.<name>.<option>}, which beat the annotation.
 */
public final class DeclaredSchedule {

    private DeclaredSchedule() {
    }

    /**
     * @param source the consumer method, for messages
     * @throws IllegalArgumentException naming the schedule, the key or attribute, and the problem
     */
    public static ScheduleDefinition resolve(Recurring recurring, String queue, String source,
            Function<String, Optional<String>> lookup) {
        String name = nameOf(recurring, queue);
        if (!QueueNames.isValid(name)) {
            throw new IllegalArgumentException(Messages.badScheduleName(name, source));
        }
        Setting cron = setting(lookup, name, "cron", recurring.cron());
        Setting zone = setting(lookup, name, "zone", recurring.zone());
        CronSchedule schedule;
        try {
            schedule = CronSchedule.parse(cron.value(), zone.value());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(Messages.badScheduleTimes(name, source + ", " + cron.from() + ", "
                    + zone.from(), e.getMessage()));
        }
        SchedulePolicy policy = new SchedulePolicy(
                constant(setting(lookup, name, "missed", recurring.missed().name()), MissedOccurrences.class, name),
                duration(setting(lookup, name, "missed-after", recurring.missedAfter()), name),
                positive(setting(lookup, name, "catch-up-limit", String.valueOf(recurring.catchUpLimit())), name),
                constant(setting(lookup, name, "overlap", recurring.overlap().name()), OverlapPolicy.class, name));
        boolean enabled = bool(setting(lookup, name, "enabled", "true"), name);
        return new ScheduleDefinition(name, queue, schedule, policy, null, true, enabled);
    }

    /** The schedule's name: the one {@code @Recurring} gives, or else its consumer's queue. */
    public static String nameOf(Recurring recurring, String queue) {
        return recurring.name().isEmpty() ? queue : recurring.name();
    }

    /** A value and where it came from: a configuration key, or the annotation. */
    private record Setting(String option, String value, String from) {
    }

    private static Setting setting(Function<String, Optional<String>> lookup, String name, String option,
            String annotated) {
        String key = ConfigKeys.SCHEDULE_PREFIX + name + "." + option;
        return lookup.apply(key).map(value -> new Setting(option, value.trim(), "configuration key " + key))
                .orElse(new Setting(option, annotated, "the annotation's " + option));
    }

    private static <E extends Enum<E>> E constant(Setting setting, Class<E> type, String name) {
        try {
            return Enum.valueOf(type, setting.value().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw bad(setting, name, "use one of " + Arrays.toString(type.getEnumConstants()).toLowerCase(Locale.ROOT));
        }
    }

    private static Duration duration(Setting setting, String name) {
        try {
            return Durations.parse(setting.value());
        } catch (IllegalArgumentException e) {
            throw bad(setting, name, e.getMessage());
        }
    }

    private static int positive(Setting setting, String name) {
        try {
            int value = Integer.parseInt(setting.value());
            if (value >= 1) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw bad(setting, name, "use a whole number of at least 1");
    }

    private static boolean bool(Setting setting, String name) {
        try {
            return Switches.parse(setting.value());
        } catch (IllegalArgumentException e) {
            throw bad(setting, name, e.getMessage());
        }
    }

    private static IllegalArgumentException bad(Setting setting, String name, String problem) {
        return new IllegalArgumentException(Messages.badScheduleValue(name, setting.from(), setting.value(), problem));
    }
}
