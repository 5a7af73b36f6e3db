package dev.jobqueue.internal.dispatch;

import dev.jobqueue.internal.store.ClaimedJob;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The jobs this node has claimed and not yet finished: what the lease keeper renews, the stuck-job monitor
 * watches and shutdown releases.
 */
@ApplicationScoped
public class RunningJobs {

    /**
     * A claimed job and, once it runs, the thread running it.
     *
     * @param job         the claimed job
     * @param thread      the thread running it, or null while it waits for a thread or for its DONE to be written
     * @param startedAt   when it started running, or null while it waits
     * @param warnedStuck whether it has been reported as stuck
     */
    public record Entry(ClaimedJob job, Thread thread, Instant startedAt, boolean warnedStuck) {
    }

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();

    void claimed(ClaimedJob job) {
        entries.put(job.id(), new Entry(job, null, null, false));
    }

    void started(ClaimedJob job, Instant now) {
        entries.put(job.id(), new Entry(job, Thread.currentThread(), now, false));
    }

    /** The job's consumer returned and its DONE waits to be written: it holds its lease but no thread. */
    void completing(ClaimedJob job) {
        entries.put(job.id(), new Entry(job, null, null, false));
    }

    void finished(ClaimedJob job) {
        entries.remove(job.id());
    }

    /** Records that the job was reported as stuck; true only the first time, so it is reported once. */
    boolean markWarnedStuck(String jobId) {
        boolean[] first = {false};
        entries.computeIfPresent(jobId, (id, entry) -> {
            first[0] = !entry.warnedStuck();
            return new Entry(entry.job(), entry.thread(), entry.startedAt(), true);
        });
        return first[0];
    }

    public Collection<Entry> snapshot() {
        return List.copyOf(entries.values());
    }

    public boolean isEmpty() {
        return entries.isEmpty();
    }
}
