package dev.jobqueue.internal.discovery;

import dev.jobqueue.Recurring;
import dev.jobqueue.internal.Messages;
import dev.jobqueue.internal.consumer.ConsumerMethod;
import dev.jobqueue.internal.cron.DeclaredSchedule;
import dev.jobqueue.internal.cron.ScheduleDefinition;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/** Reads the schedules that consumers declare with {@code @Recurring}, with configuration applied. */
final class RecurringSchedules {

    private RecurringSchedules() {
    }

    /** Resolves each consumer's schedule into {@code schedules}; adds to {@code badValues} what is wrong. */
    static void resolve(Collection<ConsumerMethod> consumers, Function<String, Optional<String>> lookup,
            Map<String, ScheduleDefinition> schedules, Set<String> badValues) {
        for (ConsumerMethod consumer : consumers) {
            Recurring recurring = consumer.method().getAnnotation(Recurring.class);
            if (recurring != null) {
                try {
                    ScheduleDefinition schedule = DeclaredSchedule.resolve(recurring, consumer.queue(),
                            consumer.describe(), lookup);
                    if (schedules.putIfAbsent(schedule.name(), schedule) != null) {
                        badValues.add(Messages.duplicateSchedule(schedule.name()));
                    }
                } catch (IllegalArgumentException e) {
                    badValues.add(e.getMessage());
                }
            }
        }
    }

    /** The names of the schedules the consumers declare, whether or not their options are valid. */
    static Set<String> names(Collection<ConsumerMethod> consumers) {
        Set<String> names = new TreeSet<>();
        for (ConsumerMethod consumer : consumers) {
            Recurring recurring = consumer.method().getAnnotation(Recurring.class);
            if (recurring != null) {
                names.add(DeclaredSchedule.nameOf(recurring, consumer.queue()));
            }
        }
        return names;
    }
}
