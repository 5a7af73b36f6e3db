package dev.jobqueue.internal.dispatch;

import dev.jobqueue.JobId;
import dev.jobqueue.internal.Messages;
import dev.jobqueue.internal.config.QueueOptions;
import dev.jobqueue.internal.consumer.ConsumerMethod;
import dev.jobqueue.internal.metrics.JobMetrics;
import dev.jobqueue.internal.payload.PayloadCodec;
import dev.jobqueue.internal.payload.PayloadShape;
import dev.jobqueue.internal.store.ClaimedJob;
import dev.jobqueue.internal.store.FinishStore;
import dev.jobqueue.internal.time.JobQueueClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.control.ActivateRequestContext;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;

/**
 * Where a queue's worker hands over the jobs a runner took: reads their payloads, gives up a job that must not
 * run, and makes the call, with one job ({@link SingleJobCall}) or several in one transaction ({@link BatchCall}).
 * Also writes the DONEs of non-transactional jobs that the worker batched.
 */
@ApplicationScoped
public class JobExecutor {

    private static final Logger LOG = Logger.getLogger(JobExecutor.class.getName());

    @Inject
    @JobQueueClock
    Clock clock;

    @Inject
    PayloadCodec codec;

    @Inject
    FinishStore store;

    @Inject
    AttemptRecorder recorder;

    @Inject
    SingleJobCall single;

    @Inject
    BatchCall batch;

    @Inject
    JobMetrics metrics;

    @Inject
    ProgressLog progress;

    @ActivateRequestContext
    public Outcome execute(ClaimedJob job, ConsumerMethod consumer, QueueOptions options) {
        PreparedJob prepared = prepare(job, consumer, options);
        return prepared.refused() != null ? prepared.refused() : single.run(prepared, consumer, options);
    }

    /**
     * Runs jobs in one transaction: in one call of a batch consumer (see {@link dev.jobqueue.Consumer#jobsPerCall()}),
     * or in a call each (see {@link dev.jobqueue.Consumer#jobsPerTransaction()}); see {@link BatchCall} for a
     * transaction that fails or loses a lease.
     *
     * @return the outcome of each job, in the order given
     */
    @ActivateRequestContext
    public List<Outcome> executeTogether(List<ClaimedJob> jobs, ConsumerMethod consumer, QueueOptions options) {
        Map<ClaimedJob, Outcome> outcomes = new IdentityHashMap<>();
        List<PreparedJob> runnable = new ArrayList<>();
        for (ClaimedJob job : jobs) {
            PreparedJob prepared = prepare(job, consumer, options);
            if (prepared.refused() != null) {
                outcomes.put(job, prepared.refused());
            } else {
                runnable.add(prepared);
            }
        }
        batch.run(runnable, consumer, options, outcomes);
        return jobs.stream().map(outcomes::get).toList();
    }

    /**
     * Marks DONE the jobs whose non-transactional consumer returned ({@link Outcome#SUCCEEDED}), in one
     * transaction; jobs others wait for are finished one by one, so that those are released.
     */
    public void recordSucceeded(List<ClaimedJob> jobs, QueueOptions options) {
        List<ClaimedJob> left;
        try {
            left = store.completeAll(jobs, clock.instant(), !options.retention().isZero());
        } catch (RuntimeException e) {
            LOG.warning("jobqueue: cannot mark " + jobs.size() + " finished jobs of queue " + options.queue()
                    + " DONE; they run again once their leases expire: " + e);
            return;
        }
        jobs.stream().filter(job -> !left.contains(job)).forEach(job -> metrics.finished(job.queue(),
                JobMetrics.Outcome.DONE));
        for (ClaimedJob job : left) {
            try {
                recorder.announce(recorder.complete(job, options));
                metrics.finished(job.queue(), JobMetrics.Outcome.DONE);
            } catch (LeaseLostException e) {
                LOG.warning("jobqueue: " + e.getMessage());
            } catch (RuntimeException e) {
                recorder.notRecorded(job, e);
            }
        }
    }

    /** Reads the payload, or gives the job up if its attempts are used up or its payload does not fit. */
    private PreparedJob prepare(ClaimedJob job, ConsumerMethod consumer, QueueOptions options) {
        if (job.attempt() > options.maxAttempts()) {
            return PreparedJob.refused(job, recorder.giveUp(job, "gave up after " + options.maxAttempts()
                    + " attempts: the lease of the last attempt expired before it finished"));
        }
        Object payload;
        try {
            payload = codec.fromJson(job.payload(), consumer.payloadType());
        } catch (RuntimeException e) {
            return PreparedJob.refused(job, recorder.giveUp(job,
                    Messages.undeserialisablePayload(consumer.method(), e)));
        }
        if (options.strictPayload()) {
            List<String> differences = PayloadShape.differences(job.payload(), codec.toJsonWithNulls(payload));
            if (!differences.isEmpty()) {
                return PreparedJob.refused(job, recorder.giveUp(job,
                        Messages.payloadDoesNotMatch(consumer.method(), differences)));
            }
        }
        ClaimedJobContext context = new ClaimedJobContext(JobId.parse(job.id()), job.queue(), job.attempt(),
                job.enqueuedAt(), progress);
        metrics.waited(job.queue(), Duration.between(job.dueAt(), clock.instant()));
        return new PreparedJob(job, payload, context, null);
    }
}
