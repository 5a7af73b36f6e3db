package dev.jobqueue.it.recurring;

import dev.jobqueue.OccurrencesSkipped;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** What the recurring consumers received, in order, how many ran at once, and the skips reported. */
@ApplicationScoped
public class Occurrences {

    private final List<Object> received = new CopyOnWriteArrayList<>();
    private final List<OccurrencesSkipped> skipped = new CopyOnWriteArrayList<>();
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger mostAtOnce = new AtomicInteger();

    void add(Object payload) {
        received.add(payload);
    }

    /** Runs {@code work} as one consumer call, counting how many run at once. */
    void running(Runnable work) {
        mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
        try {
            work.run();
        } finally {
            running.decrementAndGet();
        }
    }

    void skipped(@Observes OccurrencesSkipped event) {
        skipped.add(event);
    }

    public List<Object> received() {
        return List.copyOf(received);
    }

    public List<OccurrencesSkipped> skipped() {
        return List.copyOf(skipped);
    }

    public int mostAtOnce() {
        return mostAtOnce.get();
    }
}
