package dev.jobqueue.internal.metrics;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The meters of each queue's series, made once and kept: a lookup in a registry costs more than the update, and
 * updates happen several times per job. Only the application's own queues get series of their own (see
 * {@link JobMetrics#ownQueues}); any other queue's are recorded under {@link MetricNames#OTHER_QUEUES}.
 *
 * @param <M> the meters of one series
 */
final class QueueSeries<M> {

    private final Function<String, M> meters;
    private final Map<String, M> bySeries = new ConcurrentHashMap<>();
    private volatile Set<String> ownQueues;

    /** @param meters makes the meters of the series with this {@code queue} tag */
    QueueSeries(Function<String, M> meters) {
        this.meters = meters;
    }

    /** Names the application's own queues, and makes their meters now, so that each is scraped at zero before use. */
    void own(Set<String> queues) {
        ownQueues = Set.copyOf(queues);
        queues.forEach(this::of);
    }

    /** The meters that record {@code queue}'s work. */
    M of(String queue) {
        M existing = bySeries.get(queue);
        if (existing != null) {
            return existing;
        }
        Set<String> own = ownQueues;
        String series = own == null || own.contains(queue) ? queue : MetricNames.OTHER_QUEUES;
        return bySeries.computeIfAbsent(series, meters);
    }
}
