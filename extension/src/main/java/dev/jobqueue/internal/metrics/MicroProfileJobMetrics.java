package dev.jobqueue.internal.metrics;

import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Collection;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToLongFunction;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.MetricID;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import org.eclipse.microprofile.metrics.Timer;

/**
 * {@link JobMetrics} in MicroProfile Metrics' application registry, each queue's metrics looked up once
 * ({@link QueueSeries}). An application-scoped bean when the server has the feature: the extension adds it ({@code Integrations}).
 */
public class MicroProfileJobMetrics implements JobMetrics {

    private static final String[] GAUGED_STATES = {"pending", "running", "failed", "cancelled"};

    @Inject
    MetricRegistry registry;

    private final QueueSeries<QueueMetrics> series =
            new QueueSeries<>(name -> new QueueMetrics(registry, queueTag(name)));
    private final Set<String> countedSchedules = ConcurrentHashMap.newKeySet();

    /** Also registers every counter and timer of these queues now, so that each is scraped at zero before use. */
    @Override
    public void ownQueues(Set<String> queues) {
        series.own(queues);
    }

    @Override
    public void enqueued(String queue, int count) {
        series.of(queue).enqueued.inc(count);
    }

    @Override
    public void finished(String queue, Outcome outcome) {
        series.of(queue).finished.get(outcome).inc();
    }

    @Override
    public void executed(String queue, Duration took) {
        series.of(queue).executionTime.update(took);
    }

    @Override
    public void waited(String queue, Duration fromDueToStart) {
        series.of(queue).waitTime.update(fromDueToStart);
    }

    @Override
    public void leaseRescued(String queue) {
        series.of(queue).leasesRescued.inc();
    }

    @Override
    public void heldBack(String queue, Hold hold) {
        series.of(queue).held.get(hold).inc();
    }

    @Override
    public void occurrences(String schedule, OccurrenceOutcome outcome, int count) {
        countedSchedules.add(schedule);
        registry.counter(occurrencesId(schedule, outcome)).inc(count);
    }

    @Override
    public void registerGauges(String queue, ToLongFunction<String> depth, ToLongFunction<String> stuck) {
        for (String state : GAUGED_STATES) {
            registry.gauge(MetricNames.DEPTH, state, depth::applyAsLong, queueTag(queue),
                    new Tag(MetricNames.STATE_TAG, state));
        }
        registry.gauge(MetricNames.STUCK, queue, stuck::applyAsLong, queueTag(queue));
    }


    @Override
    public Set<String> countedSchedules() {
        return Set.copyOf(countedSchedules);
    }

    @Override
    public void forgetSchedules(Collection<String> schedules) {
        for (String schedule : schedules) {
            countedSchedules.remove(schedule);
            for (OccurrenceOutcome outcome : OccurrenceOutcome.values()) {
                registry.remove(occurrencesId(schedule, outcome));
            }
        }
    }

    private static MetricID occurrencesId(String schedule, OccurrenceOutcome outcome) {
        return new MetricID(MetricNames.OCCURRENCES, new Tag(MetricNames.SCHEDULE_TAG, schedule),
                new Tag(MetricNames.OUTCOME_TAG, outcome.tag()));
    }

    private static Tag queueTag(String queue) {
        return new Tag(MetricNames.QUEUE_TAG, queue);
    }

    /** The counters and timers of one queue. */
    private static final class QueueMetrics {

        final Counter enqueued;
        final Map<Outcome, Counter> finished = new EnumMap<>(Outcome.class);
        final Timer executionTime;
        final Timer waitTime;
        final Counter leasesRescued;
        final Map<Hold, Counter> held = new EnumMap<>(Hold.class);

        QueueMetrics(MetricRegistry registry, Tag queue) {
            enqueued = registry.counter(MetricNames.ENQUEUED, queue);
            for (Outcome outcome : Outcome.values()) {
                finished.put(outcome, registry.counter(MetricNames.FINISHED, queue,
                        new Tag(MetricNames.OUTCOME_TAG, outcome.tag())));
            }
            executionTime = registry.timer(MetricNames.EXECUTION_TIME, queue);
            waitTime = registry.timer(MetricNames.WAIT_TIME, queue);
            leasesRescued = registry.counter(MetricNames.LEASES_RESCUED, queue);
            for (Hold hold : Hold.values()) {
                held.put(hold, registry.counter(MetricNames.CLAIMS_HELD, queue,
                        new Tag(MetricNames.LIMIT_TAG, hold.tag())));
            }
        }
    }
}
