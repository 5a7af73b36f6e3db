package dev.jobqueue.internal.dispatch;

import dev.jobqueue.JobContext;
import dev.jobqueue.internal.Messages;
import dev.jobqueue.internal.config.QueueOptions;
import dev.jobqueue.internal.consumer.ConsumerMethod;
import dev.jobqueue.internal.metrics.JobMetrics;
import dev.jobqueue.internal.store.ClaimedJob;
import dev.jobqueue.internal.store.Finish;
import dev.jobqueue.internal.store.Transactions;
import dev.jobqueue.internal.time.JobQueueClock;
import dev.jobqueue.internal.trace.ConsumerSpan;
import dev.jobqueue.internal.trace.JobTracing;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.logging.Logger;

/**
 * Calls a consumer with one job, by default in a transaction that also marks the job DONE, and records how the
 * attempt ended, inside the call's span when the server traces. A non-transactional consumer's DONE is left to the
 * worker, which writes it with others.
 */
@ApplicationScoped
class SingleJobCall {

    /** The executor's logger: its lines keep the name that logging settings and tests know them by. */
    private static final Logger LOG = Logger.getLogger(JobExecutor.class.getName());

    @Inject
    @JobQueueClock
    Clock clock;

    @Inject
    ConsumerInvoker invoker;

    @Inject
    Transactions transactions;

    @Inject
    AttemptRecorder recorder;

    @Inject
    JobMetrics metrics;

    @Inject
    JobTracing tracing;

    Outcome run(PreparedJob prepared, ConsumerMethod consumer, QueueOptions options) {
        ClaimedJob job = prepared.job();
        ConsumerSpan span = tracing.start(job.queue(), List.of(job.traced()), options.traceParent());
        Throwable[] error = {null};
        Outcome outcome = Outcome.NOT_RECORDED;
        try {
            outcome = attempt(prepared, consumer, options, error);
            return outcome;
        } finally {
            span.end(outcome.name(), error[0], outcome.failedAttempt());
        }
    }

    /** Makes the call and records its outcome; puts what it threw, if anything, in {@code error}. */
    private Outcome attempt(PreparedJob prepared, ConsumerMethod consumer, QueueOptions options, Throwable[] error) {
        ClaimedJob job = prepared.job();
        List<Object> payloads = Collections.singletonList(prepared.payload());
        List<JobContext> contexts = List.of(prepared.context());
        Instant started = clock.instant();
        // Set once the consumer has returned: what fails after that is the job's DONE or the commit, jobqueue's own
        // writes, not the consumer.
        boolean[] completing = {false};
        try {
            Finish finish;
            if (options.transactional()) {
                finish = transactions.inConsumerTransaction(() -> {
                    invoker.invoke(consumer, payloads, contexts);
                    // Marked rollback-only, the transaction would roll back without an error: not DONE.
                    if (transactions.isRollbackOnly()) {
                        throw new RollbackOnlyException(Messages.rollbackOnly(consumer.method()));
                    }
                    completing[0] = true;
                    return recorder.complete(job, options);
                });
            } else {
                invoker.invoke(consumer, payloads, contexts);
                if (job.group() == null && job.orderingKey() == null) {
                    return Outcome.SUCCEEDED;
                }
                completing[0] = true;
                finish = recorder.complete(job, options);
            }
            recorder.announce(finish);
            LOG.fine(() -> "jobqueue: job " + job.id() + " on queue " + job.queue() + " is DONE after attempt "
                    + job.attempt());
            metrics.finished(job.queue(), JobMetrics.Outcome.DONE);
            return Outcome.DONE;
        } catch (LeaseLostException e) {
            LOG.warning("jobqueue: " + e.getMessage());
            error[0] = e;
            return Outcome.LEASE_LOST;
        } catch (Throwable e) {
            error[0] = e;
            return recorder.failed(job, options, e, completing[0]);
        } finally {
            metrics.executed(job.queue(), Duration.between(started, clock.instant()));
        }
    }
}
