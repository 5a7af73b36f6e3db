package dev.jobqueue.it.reliability;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

/** What the test consumers did, attempt by attempt, and the gates that hold them. */
@ApplicationScoped
public class Attempts {

    /** One attempt of a job: its number, and whether the consumer returned. */
    public record Attempt(int attempt, boolean finished) {
    }

    private final Map<String, List<Attempt>> byPayload = new ConcurrentHashMap<>();
    private final Map<String, CountDownLatch> gates = new ConcurrentHashMap<>();

    void started(String payload, int attempt) {
        byPayload.computeIfAbsent(payload, key -> new CopyOnWriteArrayList<>()).add(new Attempt(attempt, false));
    }

    void finished(String payload, int attempt) {
        byPayload.computeIfAbsent(payload, key -> new CopyOnWriteArrayList<>()).add(new Attempt(attempt, true));
    }

    public List<Attempt> of(String payload) {
        return List.copyOf(byPayload.getOrDefault(payload, List.of()));
    }

    public boolean started(String payload) {
        return !of(payload).isEmpty();
    }

    /** Blocks the calling consumer until {@link #open} is called for the payload. */
    void await(String payload) throws InterruptedException {
        gates.computeIfAbsent(payload, key -> new CountDownLatch(1)).await();
    }

    public void open(String payload) {
        gates.computeIfAbsent(payload, key -> new CountDownLatch(1)).countDown();
    }
}
