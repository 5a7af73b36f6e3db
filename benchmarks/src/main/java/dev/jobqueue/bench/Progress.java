package dev.jobqueue.bench;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/** What the benchmark consumers have done: jobs finished per queue, and when each latency job started. */
@ApplicationScoped
public class Progress {

    private final Map<String, AtomicLong> done = new ConcurrentHashMap<>();
    private volatile AtomicLongArray latencyStarts = new AtomicLongArray(0);

    void finished(String queue) {
        finished(queue, 1);
    }

    void finished(String queue, int jobs) {
        done.computeIfAbsent(queue, q -> new AtomicLong()).addAndGet(jobs);
    }

    long done(String queue) {
        return done.computeIfAbsent(queue, q -> new AtomicLong()).get();
    }

    void reset(String queue) {
        done.put(queue, new AtomicLong());
    }

    void expectLatencyJobs(int count) {
        latencyStarts = new AtomicLongArray(count);
    }

    void started(int sequence, long nanos) {
        latencyStarts.set(sequence, nanos);
    }

    long[] starts(int count) {
        long[] starts = new long[count];
        for (int i = 0; i < count; i++) {
            starts[i] = latencyStarts.get(i);
        }
        return starts;
    }
}
