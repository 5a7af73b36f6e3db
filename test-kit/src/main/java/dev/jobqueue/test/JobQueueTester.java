package dev.jobqueue.test;

import dev.jobqueue.JobId;
import dev.jobqueue.internal.dispatch.Dispatcher;
import dev.jobqueue.internal.store.AdminStore;
import dev.jobqueue.internal.store.JobRow;
import dev.jobqueue.internal.store.JobState;
import dev.jobqueue.internal.time.JobQueueClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs and inspects a queue's jobs from a test: {@link #drain} runs every job that is due now and says what became
 * of each, and {@link #enqueued} lists what was put. In a deployment with this jar, jobs run only when drained
 * ({@link ManualRunMode}), and with {@link TestClock} a test steps over delays and backoff:
 * {@code clock.advance(backoff)}, then {@code drain(queue)} again. No sleeps.
 */
@ApplicationScoped
public class JobQueueTester {

    /** How long {@link #drain(String)} waits for the jobs to finish their attempts. */
    public static final Duration DEFAULT_WAIT = Duration.ofSeconds(30);
    private static final int MAX_JOBS = 10_000;
    private static final long POLL_MILLIS = 5;

    @Inject
    Dispatcher dispatcher;

    @Inject
    AdminStore store;

    @Inject
    @JobQueueClock
    Clock clock;

    /** {@link #drain(String, Duration)} with {@link #DEFAULT_WAIT}. */
    public List<DrainedJob> drain(String queue) {
        return drain(queue, DEFAULT_WAIT);
    }

    /**
     * Runs now every job of {@code queue} that is due, on this application's consumer of the queue, and waits
     * until each has finished its attempt. Jobs that are not due yet (a delay, a retry's backoff) are left alone;
     * advance the {@link TestClock} to make them due, and drain again. Jobs that the drained ones put are not
     * run: drain again for them.
     *
     * @return what became of each job that was due, oldest first
     * @throws IllegalStateException if this application does not consume the queue, or an attempt did not
     *                               finish within {@code wait}; the message names the jobs still unfinished
     */
    public List<DrainedJob> drain(String queue, Duration wait) {
        if (!dispatcher.consumes(queue)) {
            throw new IllegalStateException("this application does not consume queue " + queue
                    + ", so nothing here runs its jobs");
        }
        Instant now = clock.instant();
        // Each due job's attempts before this drain: it has finished its attempt once its row counts one more and
        // it is no longer RUNNING. The row alone decides, so no event that arrives late can be taken for this
        // drain's. A job claimed already counts its attempt, so it finishes when it is no longer RUNNING.
        Map<String, Integer> attemptsBefore = new LinkedHashMap<>();
        store.jobs(queue, EnumSet.of(JobState.PENDING, JobState.RUNNING), MAX_JOBS).stream()
                .filter(job -> job.getState() == JobState.RUNNING || !job.getRunAt().isAfter(now))
                .forEach(job -> attemptsBefore.put(job.getId(), job.getState() == JobState.RUNNING
                        ? job.getAttempts() - 1 : job.getAttempts()));
        long deadline = System.nanoTime() + wait.toNanos();
        Map<String, JobState> unfinished = unfinished(attemptsBefore);
        while (!unfinished.isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("after " + wait + ", these jobs of queue " + queue
                        + " have not finished their attempt: " + unfinished);
            }
            if (unfinished.containsValue(JobState.PENDING)) {
                dispatcher.runDueJobs(queue);
            }
            sleep();
            unfinished = unfinished(attemptsBefore);
        }
        return attemptsBefore.keySet().stream().map(this::outcome).toList();
    }

    /** The jobs that have not finished an attempt since {@code attemptsBefore} was read, by state. */
    private Map<String, JobState> unfinished(Map<String, Integer> attemptsBefore) {
        Map<String, JobState> left = new LinkedHashMap<>();
        Instant now = clock.instant();
        // A job its consumer's backoff sent back is PENDING with its attempt given back, but due only when the
        // backoff is over: its attempt has finished.
        attemptsBefore.forEach((id, before) -> store.job(id)
                .filter(job -> job.getState() == JobState.RUNNING
                        || job.getState() == JobState.PENDING && job.getAttempts() <= before
                                && !job.getRunAt().isAfter(now))
                .ifPresent(job -> left.put(id, job.getState())));
        return left;
    }

    private DrainedJob outcome(String id) {
        JobId jobId = JobId.parse(id);
        Optional<JobRow> row = store.job(id);
        if (row.isEmpty()) {
            return new DrainedJob(jobId, DrainedJob.Outcome.DONE, 0, null, null);
        }
        JobRow job = row.get();
        return switch (job.getState()) {
            case DONE -> new DrainedJob(jobId, DrainedJob.Outcome.DONE, job.getAttempts(), job.getLastError(), null);
            case FAILED -> new DrainedJob(jobId, DrainedJob.Outcome.FAILED, job.getAttempts(), job.getLastError(),
                    null);
            default -> new DrainedJob(jobId, DrainedJob.Outcome.RETRIED, job.getAttempts(), job.getLastError(),
                    job.getRunAt());
        };
    }

    /** The jobs of {@code queue} that were put and have not finished (PENDING, WAITING or RUNNING), oldest first. */
    public List<PutJob> enqueued(String queue) {
        return store.jobs(queue, EnumSet.of(JobState.PENDING, JobState.WAITING, JobState.RUNNING), MAX_JOBS).stream()
                .map(job -> new PutJob(JobId.parse(job.getId()), job.getQueue(), job.getState().name(),
                        job.getPayload(), job.getRunAt(), job.getPriority(), job.getDedupeKey(),
                        job.getOrderingKey(), job.getGroupName()))
                .toList();
    }

    private static void sleep() {
        try {
            Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while draining", e);
        }
    }
}
