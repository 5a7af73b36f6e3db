package dev.jobqueue.it.lifecycle;

import dev.jobqueue.JobContext;
import dev.jobqueue.JobFailed;
import dev.jobqueue.JobId;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

/** Records consumer calls and JobFailed events, and holds the latch the fenced consumer waits on. */
@ApplicationScoped
public class Calls {

    private final Map<JobId, List<Integer>> attempts = new ConcurrentHashMap<>();
    private final List<JobFailed> failures = new CopyOnWriteArrayList<>();
    private volatile CountDownLatch gate = new CountDownLatch(0);

    public void record(JobContext context) {
        attempts.computeIfAbsent(context.id(), id -> new CopyOnWriteArrayList<>()).add(context.attempt());
    }

    public List<Integer> attemptsOf(JobId id) {
        return List.copyOf(attempts.getOrDefault(id, List.of()));
    }

    void onFailure(@Observes @Priority(1) JobFailed failed) {
        failures.add(failed);
    }

    public List<JobFailed> failuresOf(JobId id) {
        return failures.stream().filter(failed -> failed.id().equals(id)).toList();
    }

    public void closeGate() {
        gate = new CountDownLatch(1);
    }

    public void openGate() {
        gate.countDown();
    }

    public void passGate() throws InterruptedException {
        gate.await();
    }
}
