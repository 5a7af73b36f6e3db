package dev.jobqueue.internal.metrics;

import java.time.Duration;
import java.util.Collection;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * What jobqueue records about its work. MicroProfile Metrics implements it when the server offers it, Micrometer
 * when the server offers that instead, and otherwise a no-op does, so the core never depends on a metrics library.
 */
public interface JobMetrics {

    /** The outcomes of an attempt, as tagged on {@link MetricNames#FINISHED}. */
    enum Outcome {
        DONE, RETRIED, FAILED, CANCELLED;

        public String tag() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** What held a claim back, as tagged on {@link MetricNames#CLAIMS_HELD}. */
    enum Hold {
        RATE_LIMIT, MAX_RUNNING, PAUSE;

        public String tag() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }
    }

    /** What became of a schedule's occurrences, as tagged on {@link MetricNames#OCCURRENCES}. */
    enum OccurrenceOutcome {
        PUT, MISSED, OVERLAPPED;

        public String tag() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * Names the queues whose metrics get series of their own: those this application consumes or marks
     * producer-only. Any other queue's (a put on a queue named per tenant, a rescue of another application's
     * job) are recorded under {@link MetricNames#OTHER_QUEUES}, so that the number of series stays bounded
     * by the configuration. Until it is called, every queue gets its own series.
     */
    void ownQueues(Set<String> queues);

    void enqueued(String queue, int count);

    void finished(String queue, Outcome outcome);

    void executed(String queue, Duration took);

    void waited(String queue, Duration fromDueToStart);

    void leaseRescued(String queue);

    /** Counts a claim that took fewer jobs than it could run, or none, because of the queue's limits or a pause. */
    void heldBack(String queue, Hold hold);

    /** Counts {@code count} occurrences of a recurring schedule that were put or skipped. */
    void occurrences(String schedule, OccurrenceOutcome outcome, int count);

    /** The schedules that have series of {@link MetricNames#OCCURRENCES} on this node. */
    Set<String> countedSchedules();

    /** Removes the series of {@code schedules}, which no longer exist, so that deleted schedules leave none. */
    void forgetSchedules(Collection<String> schedules);

    /**
     * Registers the gauges of one queue.
     *
     * @param depth reads the cached number of the queue's jobs in a state ("pending", "running", "failed", "cancelled")
     * @param stuck reads how many of the queue's consumers are past their max-execute-time
     */
    void registerGauges(String queue, ToLongFunction<String> depth, ToLongFunction<String> stuck);
}
