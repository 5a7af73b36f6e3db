package dev.jobqueue.it.recurring;

import jakarta.enterprise.inject.spi.CDI;
import java.util.Optional;
import java.util.OptionalLong;
import org.eclipse.microprofile.metrics.MetricID;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * The counters jobqueue keeps per schedule, read from MicroProfile Metrics where the server has it. WildFly has
 * none: there jobqueue counts nothing, and this class, one of the two of the test that name the Metrics API, asks
 * for nothing.
 */
final class ScheduleCounters {

    private ScheduleCounters() {
    }

    /** Whether the server gives the application MicroProfile Metrics. */
    static boolean available() {
        try {
            Class.forName("org.eclipse.microprofile.metrics.MetricRegistry", false,
                    Thread.currentThread().getContextClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** The count of {@code jobqueue.schedule.occurrences} for a schedule and outcome, or empty without Metrics. */
    static OptionalLong count(String schedule, String outcome) {
        if (!available()) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(registry().counter(id(schedule, outcome)).getCount());
    }

    /** Whether the series of a schedule and outcome exists; empty without Metrics. */
    static Optional<Boolean> exists(String schedule, String outcome) {
        if (!available()) {
            return Optional.empty();
        }
        return Optional.of(registry().getCounters().containsKey(id(schedule, outcome)));
    }

    private static MetricID id(String schedule, String outcome) {
        return new MetricID("jobqueue.schedule.occurrences", new Tag("schedule", schedule), new Tag("outcome", outcome));
    }

    private static MetricRegistry registry() {
        return CDI.current().select(ApplicationMetrics.class).get().registry;
    }
}
