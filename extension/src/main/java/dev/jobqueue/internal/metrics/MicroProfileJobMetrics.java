package dev.jobqueue.internal.metrics;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.function.ToLongFunction;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/** {@link JobMetrics} in MicroProfile Metrics' application registry. */
@ApplicationScoped
public class MicroProfileJobMetrics implements JobMetrics {

    private static final String[] GAUGED_STATES = {"pending", "running", "failed"};

    @Inject
    MetricRegistry registry;

    @Override
    public void enqueued(String queue, int count) {
        registry.counter(MetricNames.ENQUEUED, queueTag(queue)).inc(count);
    }

    @Override
    public void finished(String queue, Outcome outcome) {
        registry.counter(MetricNames.FINISHED, queueTag(queue), new Tag(MetricNames.OUTCOME_TAG, outcome.tag())).inc();
    }

    @Override
    public void executed(String queue, Duration took) {
        registry.timer(MetricNames.EXECUTION_TIME, queueTag(queue)).update(took);
    }

    @Override
    public void waited(String queue, Duration fromDueToStart) {
        registry.timer(MetricNames.WAIT_TIME, queueTag(queue)).update(fromDueToStart);
    }

    @Override
    public void leaseRescued(String queue) {
        registry.counter(MetricNames.LEASES_RESCUED, queueTag(queue)).inc();
    }

    @Override
    public void registerGauges(String queue, ToLongFunction<String> depth, ToLongFunction<String> stuck) {
        for (String state : GAUGED_STATES) {
            registry.gauge(MetricNames.DEPTH, state, depth::applyAsLong, queueTag(queue),
                    new Tag(MetricNames.STATE_TAG, state));
        }
        registry.gauge(MetricNames.STUCK, queue, stuck::applyAsLong, queueTag(queue));
    }

    private static Tag queueTag(String queue) {
        return new Tag(MetricNames.QUEUE_TAG, queue);
    }
}
