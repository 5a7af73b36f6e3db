package dev.jobqueue.internal.dispatch;

import dev.jobqueue.internal.store.ClaimedJob;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The jobs this node has claimed and not yet finished: what the lease keeper renews and shutdown releases. */
@ApplicationScoped
public class RunningJobs {

    /**
     * A claimed job and, once it runs, the thread running it.
     *
     * @param job       the claimed job
     * @param thread    the thread running it, or null while it waits for a thread
     * @param startedAt when it started running, or null while it waits
     */
    public record Entry(ClaimedJob job, Thread thread, Instant startedAt) {
    }

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();

    void claimed(ClaimedJob job) {
        entries.put(job.id(), new Entry(job, null, null));
    }

    void started(ClaimedJob job, Instant now) {
        entries.put(job.id(), new Entry(job, Thread.currentThread(), now));
    }

    void finished(ClaimedJob job) {
        entries.remove(job.id());
    }

    public Collection<Entry> snapshot() {
        return List.copyOf(entries.values());
    }

    public boolean isEmpty() {
        return entries.isEmpty();
    }
}
