package dev.jobqueue.it.limits;

import dev.jobqueue.Consumer;
import dev.jobqueue.JobContext;
import dev.jobqueue.QueueBackoffException;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Consumers of queues with cluster-wide limits; each records when it was called and, by queue, how many ran at
 * once.
 */
@ApplicationScoped
public class LimitConsumers {

    /** One call: the payload, and when it began by this server's clock. */
    public record Call(String payload, Instant at) {
    }

    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private final Map<String, AtomicInteger> running = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> mostRunning = new ConcurrentHashMap<>();
    private final Set<String> toldToBackOff = ConcurrentHashMap.newKeySet();

    @Consumer(queue = "rated", rateLimit = "4/1s", concurrency = 8)
    public void rated(String payload) {
        calls.add(new Call(payload, Instant.now()));
    }

    /** Short jobs far below their limit's pace: once some have run, a claim takes jobs ahead of the runners. */
    @Consumer(queue = "rated-ahead", rateLimit = "100/500ms", concurrency = 2)
    public void ratedAhead(String payload) throws InterruptedException {
        hold("rated-ahead", payload, 2);
    }

    @Consumer(queue = "capped", maxRunning = 2, concurrency = 6)
    public void capped(String payload) throws InterruptedException {
        hold("capped", payload, 150);
    }

    /** No configured limit: the test sets one through the admin API. */
    @Consumer(queue = "adjustable", concurrency = 6)
    public void adjustable(String payload) throws InterruptedException {
        hold("adjustable", payload, 150);
    }

    /** No limit and no job: its row in jobqueue_queue is made by the test and by an admin at once. */
    @Consumer(queue = "contested")
    public void contested(String payload) {
        calls.add(new Call(payload, Instant.now()));
    }

    /** A partner that answers "429, retry after 1.5 s" the first time it sees a payload starting with 429. */
    @Consumer(queue = "backing-off", concurrency = 2)
    public void backingOff(String payload, JobContext job) {
        calls.add(new Call(payload, Instant.now()));
        if (payload.startsWith("429") && toldToBackOff.add(payload)) {
            throw new QueueBackoffException(Duration.ofMillis(1500), "429 Too Many Requests");
        }
    }

    private void hold(String queue, String payload, long millis) throws InterruptedException {
        calls.add(new Call(payload, Instant.now()));
        AtomicInteger now = running.computeIfAbsent(queue, name -> new AtomicInteger());
        mostRunning.computeIfAbsent(queue, name -> new AtomicInteger()).accumulateAndGet(now.incrementAndGet(),
                Math::max);
        try {
            Thread.sleep(millis);
        } finally {
            now.decrementAndGet();
        }
    }

    /** The calls whose payload starts with {@code prefix}, in the order they began. */
    public List<Call> calls(String prefix) {
        return calls.stream().filter(call -> call.payload().startsWith(prefix)).toList();
    }

    /** The most calls of the queue's consumer at once since the last reset. */
    public int mostRunning(String queue) {
        return mostRunning.computeIfAbsent(queue, name -> new AtomicInteger()).get();
    }

    public void resetMostRunning(String queue) {
        mostRunning.computeIfAbsent(queue, name -> new AtomicInteger()).set(0);
    }
}
