package dev.jobqueue.it.app;

import dev.jobqueue.JobContext;
import dev.jobqueue.JobId;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

/** What the test consumers saw, so tests can wait for it and assert on it. */
@ApplicationScoped
public class Recorder {

    /**
     * One call of a consumer.
     *
     * @param payload the payload it received
     * @param attempt the attempt number from its JobContext
     * @param queue   the queue from its JobContext
     */
    public record Call(Object payload, int attempt, String queue) {
    }

    private final Map<JobId, List<Call>> calls = new ConcurrentHashMap<>();
    private final AtomicReference<JobId> rolledBack = new AtomicReference<>();

    public void record(Object payload, JobContext context) {
        calls.computeIfAbsent(context.id(), id -> new CopyOnWriteArrayList<>())
                .add(new Call(payload, context.attempt(), context.queue()));
    }

    public List<Call> callsOf(JobId id) {
        return List.copyOf(calls.getOrDefault(id, List.of()));
    }

    /** Waits until the job has been called {@code count} times, and returns the calls. */
    public List<Call> await(JobId id, int count, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (callsOf(id).size() < count && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        return callsOf(id);
    }

    public void rememberRolledBack(JobId id) {
        rolledBack.set(id);
    }

    public JobId rolledBack() {
        return rolledBack.get();
    }
}
