package dev.jobqueue.internal.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;

/**
 * {@link JobMetrics} in Micrometer, for servers that offer it instead of MicroProfile Metrics (WildFly's micrometer
 * subsystem). The meters have the names and tags of {@link MetricNames}, so that a Prometheus scrape shows the same
 * counters and gauges as on a server with MicroProfile Metrics. Timers give their count, sum and maximum but no
 * quantiles: Micrometer computes those with HdrHistogram, which WildFly's Micrometer module lacks. The registry is
 * the server's CDI bean, or Micrometer's global registry when there is none (an application that brings Micrometer
 * itself adds its registries there). An application-scoped bean when Micrometer is visible and MicroProfile
 * Metrics is not: the extension adds it ({@code Integrations}).
 */
public class MicrometerJobMetrics implements JobMetrics {

    private static final String[] GAUGED_STATES = {"pending", "running", "failed", "cancelled"};
    private static final String METER_PREFIX = "jobqueue.";

    @Inject
    Instance<MeterRegistry> registries;

    private MeterRegistry registry;
    private final QueueSeries<QueueMeters> series = new QueueSeries<>(name -> new QueueMeters(registry, name));
    private final Set<String> countedSchedules = ConcurrentHashMap.newKeySet();
    private final List<LongSupplier> gauged = new CopyOnWriteArrayList<>();

    /** Reports to {@code registry}, outside CDI. */
    static MicrometerJobMetrics reportingTo(MeterRegistry registry) {
        MicrometerJobMetrics metrics = new MicrometerJobMetrics();
        metrics.registry = registry;
        return metrics;
    }

    @PostConstruct
    void chooseRegistry() {
        registry = registries.isResolvable() ? registries.get() : Metrics.globalRegistry;
    }

    /**
     * Removes jobqueue's meters when the application stops. A registry that outlives it, such as WildFly's, would
     * otherwise keep them, and through the gauges' functions the stopped application itself, whose beans then fail
     * at every scrape.
     */
    @PreDestroy
    void removeMeters() {
        registry.getMeters().stream().filter(meter -> meter.getId().getName().startsWith(METER_PREFIX))
                .forEach(registry::remove);
    }

    /** Also registers every counter and timer of these queues now, so that each is scraped at zero before use. */
    @Override
    public void ownQueues(Set<String> queues) {
        series.own(queues);
    }

    @Override
    public void enqueued(String queue, int count) {
        series.of(queue).enqueued.increment(count);
    }

    @Override
    public void finished(String queue, Outcome outcome) {
        series.of(queue).finished.get(outcome).increment();
    }

    @Override
    public void executed(String queue, Duration took) {
        series.of(queue).executionTime.record(took);
    }

    @Override
    public void waited(String queue, Duration fromDueToStart) {
        series.of(queue).waitTime.record(fromDueToStart);
    }

    @Override
    public void leaseRescued(String queue) {
        series.of(queue).leasesRescued.increment();
    }

    @Override
    public void heldBack(String queue, Hold hold) {
        series.of(queue).held.get(hold).increment();
    }

    @Override
    public void occurrences(String schedule, OccurrenceOutcome outcome, int count) {
        countedSchedules.add(schedule);
        registry.counter(MetricNames.OCCURRENCES, MetricNames.SCHEDULE_TAG, schedule, MetricNames.OUTCOME_TAG,
                outcome.tag()).increment(count);
    }

    @Override
    public Set<String> countedSchedules() {
        return Set.copyOf(countedSchedules);
    }

    @Override
    public void forgetSchedules(Collection<String> schedules) {
        for (String schedule : schedules) {
            countedSchedules.remove(schedule);
            registry.find(MetricNames.OCCURRENCES).tag(MetricNames.SCHEDULE_TAG, schedule).meters()
                    .forEach(registry::remove);
        }
    }

    @Override
    public void registerGauges(String queue, ToLongFunction<String> depth, ToLongFunction<String> stuck) {
        for (String state : GAUGED_STATES) {
            gauge(MetricNames.DEPTH, Tags.of(MetricNames.QUEUE_TAG, queue, MetricNames.STATE_TAG, state),
                    () -> depth.applyAsLong(state));
        }
        gauge(MetricNames.STUCK, Tags.of(MetricNames.QUEUE_TAG, queue), () -> stuck.applyAsLong(queue));
    }

    /**
     * Through the registry's own method, not a builder: WildFly's registry of each deployment passes only those on
     * to the server's, which exports them. The registry holds the value weakly, so this object keeps it.
     */
    private void gauge(String name, Tags tags, LongSupplier value) {
        gauged.add(value);
        registry.gauge(name, tags, value, LongSupplier::getAsLong);
    }


    /** The counters and timers of one queue's series. */
    private static final class QueueMeters {

        final Counter enqueued;
        final Map<Outcome, Counter> finished = new EnumMap<>(Outcome.class);
        final Timer executionTime;
        final Timer waitTime;
        final Counter leasesRescued;
        final Map<Hold, Counter> held = new EnumMap<>(Hold.class);

        QueueMeters(MeterRegistry registry, String queue) {
            enqueued = registry.counter(MetricNames.ENQUEUED, MetricNames.QUEUE_TAG, queue);
            for (Outcome outcome : Outcome.values()) {
                finished.put(outcome, registry.counter(MetricNames.FINISHED, MetricNames.QUEUE_TAG, queue,
                        MetricNames.OUTCOME_TAG, outcome.tag()));
            }
            executionTime = registry.timer(MetricNames.EXECUTION_TIME, MetricNames.QUEUE_TAG, queue);
            waitTime = registry.timer(MetricNames.WAIT_TIME, MetricNames.QUEUE_TAG, queue);
            leasesRescued = registry.counter(MetricNames.LEASES_RESCUED, MetricNames.QUEUE_TAG, queue);
            for (Hold hold : Hold.values()) {
                held.put(hold, registry.counter(MetricNames.CLAIMS_HELD, MetricNames.QUEUE_TAG, queue,
                        MetricNames.LIMIT_TAG, hold.tag()));
            }
        }
    }
}
