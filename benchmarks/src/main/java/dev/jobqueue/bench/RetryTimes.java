package dev.jobqueue.bench;

import dev.jobqueue.JobRetried;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * On this node: when each retry of the bench-retry queues was due (from the {@link JobRetried} event of the attempt
 * that failed here) and when each retry started here, in wall-clock microseconds, keyed by job id.
 */
@ApplicationScoped
public class RetryTimes {

    private final Map<String, Long> due = new ConcurrentHashMap<>();
    private final Map<String, Long> started = new ConcurrentHashMap<>();

    void failed(@Observes JobRetried retried) {
        if (retried.queue().startsWith("bench-retry")) {
            due.put(retried.id().toString(), EpochMicros.of(retried.nextRunAt()));
        }
    }

    void started(String id, long micros) {
        started.put(id, micros);
    }

    void reset() {
        due.clear();
        started.clear();
    }

    Seen snapshot() {
        return new Seen(Map.copyOf(due), Map.copyOf(started));
    }

    /** What one node has seen, for the node that collects both. */
    public record Seen(Map<String, Long> due, Map<String, Long> started) {
    }
}
