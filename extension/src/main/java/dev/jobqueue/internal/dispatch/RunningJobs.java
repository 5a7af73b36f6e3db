package dev.jobqueue.internal.dispatch;

import dev.jobqueue.internal.store.ClaimedJob;
import dev.jobqueue.internal.store.LeasedJob;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The attempts this node has claimed and not yet finished: what the lease keeper renews, the stuck-job monitor
 * watches and shutdown releases. An attempt is a job under one lease token: when a job's lease lapses and this
 * node claims it again while the first attempt still runs, the two are separate entries, and the first one's
 * end does not end the second's renewals.
 */
@ApplicationScoped
public class RunningJobs {

    /**
     * A claimed attempt and, once it runs, the thread running it.
     *
     * @param job            the claimed job
     * @param leaseExpiresAt when its lease ends, as last written, on the {@link dev.jobqueue.internal.time.LeaseClock}
     * @param thread         the thread running it, or null while it waits for a thread or for its DONE to be written
     * @param startedAt      when it started running, or null while it waits
     * @param warnedStuck    whether it has been reported as stuck
     */
    public record Entry(ClaimedJob job, Instant leaseExpiresAt, Thread thread, Instant startedAt,
            boolean warnedStuck) {

        Entry renewed(Instant until) {
            return new Entry(job, until, thread, startedAt, warnedStuck);
        }
    }

    private final Map<LeasedJob, Entry> entries = new ConcurrentHashMap<>();

    /** Records an attempt this node has claimed, with its lease as written. */
    public void claimed(ClaimedJob job, Instant leaseExpiresAt) {
        entries.put(LeasedJob.of(job), new Entry(job, leaseExpiresAt, null, null, false));
    }

    void started(ClaimedJob job, Instant now) {
        entries.computeIfPresent(LeasedJob.of(job),
                (key, entry) -> new Entry(job, entry.leaseExpiresAt(), Thread.currentThread(), now, false));
    }

    /** The job's consumer returned and its DONE waits to be written: it holds its lease but no thread. */
    void completing(ClaimedJob job) {
        entries.computeIfPresent(LeasedJob.of(job),
                (key, entry) -> new Entry(job, entry.leaseExpiresAt(), null, null, false));
    }

    void finished(ClaimedJob job) {
        entries.remove(LeasedJob.of(job));
    }

    /** Records that the lease keeper extended these attempts' leases to {@code until}. */
    public void renewed(Collection<LeasedJob> jobs, Instant until) {
        jobs.forEach(job -> entries.computeIfPresent(job, (key, entry) -> entry.renewed(until)));
    }

    /** Whether this node still runs the attempt: its consumer, or its DONE, has not finished. */
    public boolean holds(LeasedJob job) {
        return entries.containsKey(job);
    }

    /** When the attempt's lease ends as far as this node knows, or null if it no longer holds it. */
    Instant leaseExpiresAt(ClaimedJob job) {
        Entry entry = entries.get(LeasedJob.of(job));
        return entry == null ? null : entry.leaseExpiresAt();
    }

    /** Records that the attempt was reported as stuck; true only the first time, so it is reported once. */
    public boolean markWarnedStuck(ClaimedJob job) {
        boolean[] first = {false};
        entries.computeIfPresent(LeasedJob.of(job), (key, entry) -> {
            first[0] = !entry.warnedStuck();
            return new Entry(entry.job(), entry.leaseExpiresAt(), entry.thread(), entry.startedAt(), true);
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
