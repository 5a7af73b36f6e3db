package dev.jobqueue.internal.dispatch;

import dev.jobqueue.internal.store.ClaimedJob;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The jobs of one non-transactional queue whose consumer returned, waiting to be marked DONE together: one
 * transaction for many jobs instead of one each. A batch is written as soon as {@link #MAX_SIZE} jobs wait, and
 * at most {@link #MAX_DELAY_MILLIS} after the first of them. Until then the jobs stay in {@link RunningJobs},
 * so their leases are renewed and shutdown waits for them. A node that dies in between runs them again, which
 * the at-least-once contract of a non-transactional consumer allows.
 */
final class CompletionBatch {

    static final int MAX_SIZE = 128;
    static final long MAX_DELAY_MILLIS = 5;

    private final ScheduledExecutorService scheduler;
    private final Consumer<List<ClaimedJob>> writer;
    private final Queue<ClaimedJob> waiting = new ConcurrentLinkedQueue<>();
    private final AtomicInteger size = new AtomicInteger();
    private final AtomicBoolean flushScheduled = new AtomicBoolean();
    private final ReentrantLock writing = new ReentrantLock();

    /**
     * @param writer marks a batch DONE and forgets its jobs; called by one thread at a time
     */
    CompletionBatch(ScheduledExecutorService scheduler, Consumer<List<ClaimedJob>> writer) {
        this.scheduler = scheduler;
        this.writer = writer;
    }

    void add(ClaimedJob job) {
        waiting.add(job);
        if (size.incrementAndGet() >= MAX_SIZE) {
            // A full batch is written by the runner that filled it, unless another is writing: that one, or the
            // flush scheduled for these jobs, takes them.
            if (writing.tryLock()) {
                try {
                    write();
                } finally {
                    writing.unlock();
                }
            }
        }
        if (flushScheduled.compareAndSet(false, true)) {
            try {
                scheduler.schedule(this::scheduledFlush, MAX_DELAY_MILLIS, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException stopping) {
                flushScheduled.set(false);
                flush();
            }
        }
    }

    /** Writes every waiting job now. */
    void flush() {
        writing.lock();
        try {
            write();
        } finally {
            writing.unlock();
        }
    }

    private void scheduledFlush() {
        flushScheduled.set(false);
        flush();
    }

    /** Writes batches until none waits. */
    private void write() {
        while (true) {
            List<ClaimedJob> jobs = new ArrayList<>();
            ClaimedJob job;
            while (jobs.size() < MAX_SIZE && (job = waiting.poll()) != null) {
                jobs.add(job);
                size.decrementAndGet();
            }
            if (jobs.isEmpty()) {
                return;
            }
            writer.accept(jobs);
        }
    }
}
