package dev.jobqueue.internal.metrics;

import java.time.Duration;
import java.util.Collection;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * Records nothing: the {@link JobMetrics} used when the server has neither MicroProfile Metrics nor Micrometer.
 * An application-scoped bean then: the extension adds it ({@code Integrations}).
 */
public class NoopJobMetrics implements JobMetrics {

    @Override
    public void ownQueues(Set<String> queues) {
        // no metrics on this server
    }

    @Override
    public void enqueued(String queue, int count) {
        // no metrics on this server
    }

    @Override
    public void finished(String queue, Outcome outcome) {
        // no metrics on this server
    }

    @Override
    public void executed(String queue, Duration took) {
        // no metrics on this server
    }

    @Override
    public void waited(String queue, Duration fromDueToStart) {
        // no metrics on this server
    }

    @Override
    public void leaseRescued(String queue) {
        // no metrics on this server
    }

    @Override
    public void heldBack(String queue, Hold hold) {
    }

    @Override
    public void occurrences(String schedule, OccurrenceOutcome outcome, int count) {
        // no metrics on this server
    }

    @Override
    public Set<String> countedSchedules() {
        return Set.of();
    }

    @Override
    public void forgetSchedules(Collection<String> schedules) {
        // no metrics on this server
    }

    @Override
    public void registerGauges(String queue, ToLongFunction<String> depth, ToLongFunction<String> stuck) {
        // no metrics on this server
    }
}
