package dev.jobqueue.internal.dispatch;

import dev.jobqueue.internal.config.QueueOptions;
import dev.jobqueue.internal.consumer.ConsumerMethod;
import dev.jobqueue.internal.store.ClaimedJob;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Runs the jobs a runner took on its thread, through the {@link JobExecutor}: one job, or several together in one
 * transaction, in one call of a batch consumer or in a call each (jobs-per-transaction). Then books how the call ended: its jobs leave {@link RunningJobs} and the
 * in-flight count, the DONE of a non-transactional job waits in a {@link CompletionBatch}, a failure holds
 * retries back, and a job with an ordering key wakes the worker for the next job of its key.
 */
final class CallRunner {

    private final ConsumerMethod consumer;
    private final QueueOptions options;
    private final JobExecutor jobExecutor;
    private final RunningJobs running;
    private final Clock clock;
    private final ClaimBuffer buffer;
    private final RetryTimer retries;
    private final Runnable passedOver;
    private final CompletionBatch succeeded;

    /**
     * @param passedOver asks the worker for a poll that reads the queue from its first due job: the next job of
     *                   an ordering key may have been passed over by the last claim
     */
    CallRunner(ConsumerMethod consumer, QueueOptions options, JobExecutor jobExecutor, RunningJobs running,
            Clock clock, ScheduledExecutorService scheduler, ClaimBuffer buffer, RetryTimer retries,
            Runnable passedOver) {
        this.consumer = consumer;
        this.options = options;
        this.jobExecutor = jobExecutor;
        this.running = running;
        this.clock = clock;
        this.buffer = buffer;
        this.retries = retries;
        this.passedOver = passedOver;
        this.succeeded = new CompletionBatch(scheduler, this::recordSucceeded);
    }

    /** Runs the jobs taken together: one, or up to jobs-per-call or jobs-per-transaction. */
    void run(List<ClaimedJob> jobs) {
        if (consumer.batch() || jobs.size() > 1) {
            runTogether(jobs);
        } else {
            runAlone(jobs.get(0));
        }
    }

    /** Marks DONE now the jobs whose non-transactional consumer returned, rather than within a few milliseconds. */
    void flushSucceeded() {
        succeeded.flush();
    }

    private void runAlone(ClaimedJob job) {
        running.started(job, clock.instant());
        Outcome outcome = null;
        try {
            outcome = jobExecutor.execute(job, consumer, options);
            if (outcome.isFailure()) {
                retries.attemptFailed();
            }
        } finally {
            buffer.ended(1);
            if (outcome == Outcome.SUCCEEDED) {
                running.completing(job);
                succeeded.add(job);
            } else {
                running.finished(job);
            }
        }
        if (job.orderingKey() != null) {
            // The next job of its key may have been passed over at the last claim: claim it now, not at the next poll.
            passedOver.run();
        }
    }

    /** Runs the jobs in one transaction: one call of a batch consumer, or a call each. */
    private void runTogether(List<ClaimedJob> jobs) {
        Instant now = clock.instant();
        jobs.forEach(job -> running.started(job, now));
        try {
            List<Outcome> outcomes = jobExecutor.executeTogether(jobs, consumer, options);
            if (outcomes.stream().anyMatch(Outcome::isFailure)) {
                retries.attemptFailed();
            }
        } finally {
            buffer.ended(jobs.size());
            jobs.forEach(running::finished);
        }
        if (jobs.stream().anyMatch(job -> job.orderingKey() != null)) {
            passedOver.run();
        }
    }

    private void recordSucceeded(List<ClaimedJob> jobs) {
        try {
            jobExecutor.recordSucceeded(jobs, options);
        } finally {
            jobs.forEach(running::finished);
        }
    }
}
