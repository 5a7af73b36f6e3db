package dev.jobqueue.internal.metrics;

import jakarta.inject.Inject;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToLongFunction;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import org.eclipse.microprofile.metrics.Timer;

/**
 * {@link JobMetrics} in MicroProfile Metrics' application registry. Each queue's metrics are looked up once and
 * kept: a lookup in the registry costs more than the update, and updates happen several times per job. Only
 * the application's own queues get series of their own (see {@link #ownQueues}).
 * An application-scoped bean when the server has the feature: the extension adds it ({@code Integrations}).
 */
public class MicroProfileJobMetrics implements JobMetrics {

    private static final String[] GAUGED_STATES = {"pending", "running", "failed"};

    @Inject
    MetricRegistry registry;

    private final Map<String, QueueMetrics> byQueue = new ConcurrentHashMap<>();
    private volatile Set<String> ownQueues;

    /** Also registers every counter and timer of these queues now, so that each is scraped at zero before use. */
    @Override
    public void ownQueues(Set<String> queues) {
        ownQueues = Set.copyOf(queues);
        queues.forEach(this::of);
    }

    @Override
    public void enqueued(String queue, int count) {
        of(queue).enqueued.inc(count);
    }

    @Override
    public void finished(String queue, Outcome outcome) {
        of(queue).finished.get(outcome).inc();
    }

    @Override
    public void executed(String queue, Duration took) {
        of(queue).executionTime.update(took);
    }

    @Override
    public void waited(String queue, Duration fromDueToStart) {
        of(queue).waitTime.update(fromDueToStart);
    }

    @Override
    public void leaseRescued(String queue) {
        of(queue).leasesRescued.inc();
    }

    @Override
    public void occurrences(String schedule, OccurrenceOutcome outcome, int count) {
        registry.counter(MetricNames.OCCURRENCES, new Tag(MetricNames.SCHEDULE_TAG, schedule),
                new Tag(MetricNames.OUTCOME_TAG, outcome.tag())).inc(count);
    }

    @Override
    public void registerGauges(String queue, ToLongFunction<String> depth, ToLongFunction<String> stuck) {
        for (String state : GAUGED_STATES) {
            registry.gauge(MetricNames.DEPTH, state, depth::applyAsLong, queueTag(queue),
                    new Tag(MetricNames.STATE_TAG, state));
        }
        registry.gauge(MetricNames.STUCK, queue, stuck::applyAsLong, queueTag(queue));
    }

    private QueueMetrics of(String queue) {
        QueueMetrics metrics = byQueue.get(queue);
        if (metrics != null) {
            return metrics;
        }
        Set<String> own = ownQueues;
        String series = own == null || own.contains(queue) ? queue : MetricNames.OTHER_QUEUES;
        return byQueue.computeIfAbsent(series, name -> new QueueMetrics(registry, queueTag(name)));
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

        QueueMetrics(MetricRegistry registry, Tag queue) {
            enqueued = registry.counter(MetricNames.ENQUEUED, queue);
            for (Outcome outcome : Outcome.values()) {
                finished.put(outcome, registry.counter(MetricNames.FINISHED, queue,
                        new Tag(MetricNames.OUTCOME_TAG, outcome.tag())));
            }
            executionTime = registry.timer(MetricNames.EXECUTION_TIME, queue);
            waitTime = registry.timer(MetricNames.WAIT_TIME, queue);
            leasesRescued = registry.counter(MetricNames.LEASES_RESCUED, queue);
        }
    }
}
