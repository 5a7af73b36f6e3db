package dev.jobqueue.internal.schedule;

import dev.jobqueue.internal.metrics.JobMetrics;
import dev.jobqueue.internal.store.ScheduleStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Removes the occurrence series of schedules that no longer exist, on every node: a schedule per tenant, deleted
 * with its tenant, would otherwise leave its series behind until the server restarts. It asks the database about
 * the schedules this node has series of, {@value #CHUNK} names a query.
 */
@ApplicationScoped
public class DeletedScheduleMetrics {

    static final int CHUNK = 1_000;

    @Inject
    ScheduleStore store;

    @Inject
    JobMetrics metrics;

    /** Forgets the series of every counted schedule that is gone. */
    public void prune() {
        List<String> counted = new ArrayList<>(metrics.countedSchedules());
        Set<String> existing = new HashSet<>();
        for (int from = 0; from < counted.size(); from += CHUNK) {
            existing.addAll(store.existing(counted.subList(from, Math.min(counted.size(), from + CHUNK))));
        }
        counted.removeAll(existing);
        metrics.forgetSchedules(counted);
    }
}
