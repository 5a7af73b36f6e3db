package dev.jobqueue.internal.dispatch;

import dev.jobqueue.GroupFinished;
import dev.jobqueue.JobContext;
import dev.jobqueue.JobFailed;
import dev.jobqueue.JobId;
import dev.jobqueue.JobRetried;
import dev.jobqueue.internal.Messages;
import dev.jobqueue.internal.config.QueueOptions;
import dev.jobqueue.internal.consumer.ConsumerMethod;
import dev.jobqueue.internal.metrics.JobMetrics;
import dev.jobqueue.internal.payload.PayloadCodec;
import dev.jobqueue.internal.payload.PayloadShape;
import dev.jobqueue.internal.store.ClaimedJob;
import dev.jobqueue.internal.store.ErrorText;
import dev.jobqueue.internal.store.FailedDependent;
import dev.jobqueue.internal.store.Finish;
import dev.jobqueue.internal.store.FinishStore;
import dev.jobqueue.internal.store.JobState;
import dev.jobqueue.internal.store.Transactions;
import dev.jobqueue.internal.time.JobQueueClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.control.ActivateRequestContext;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionalException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.logging.Logger;

/**
 * Runs one claimed job: deserialises the payload, calls the consumer (by default in a transaction that also
 * marks the job DONE), and on an exception records the error and schedules the next attempt or gives up.
 */
@ApplicationScoped
public class JobExecutor {

    private static final Logger LOG = Logger.getLogger(JobExecutor.class.getName());

    @Inject
    @JobQueueClock
    Clock clock;

    @Inject
    ConsumerInvoker invoker;

    @Inject
    PayloadCodec codec;

    @Inject
    FinishStore store;

    @Inject
    Transactions transactions;

    @Inject
    Event<JobFailed> failures;

    @Inject
    Event<JobRetried> retries;

    @Inject
    Event<GroupFinished> groupsFinished;

    @Inject
    Dispatcher dispatcher;

    @Inject
    JobMetrics metrics;

    @ActivateRequestContext
    public Outcome execute(ClaimedJob job, ConsumerMethod consumer, QueueOptions options) {
        Prepared prepared = prepare(job, consumer, options);
        return prepared.refused() != null ? prepared.refused() : runAlone(prepared, consumer, options);
    }

    /**
     * Runs the jobs of a batch consumer, as many at once as it takes (see {@link dev.jobqueue.Consumer#jobsPerCall()}):
     * all of them in one call and one transaction. If that fails, the jobs run again in two halves, and so on,
     * until the failing job runs alone and fails as it would in a consumer of one job per call.
     *
     * @return the outcome of each job, in the order given
     */
    @ActivateRequestContext
    public List<Outcome> executeTogether(List<ClaimedJob> jobs, ConsumerMethod consumer, QueueOptions options) {
        Map<ClaimedJob, Outcome> outcomes = new IdentityHashMap<>();
        List<Prepared> runnable = new ArrayList<>();
        for (ClaimedJob job : jobs) {
            Prepared prepared = prepare(job, consumer, options);
            if (prepared.refused() != null) {
                outcomes.put(job, prepared.refused());
            } else {
                runnable.add(prepared);
            }
        }
        runTogether(runnable, consumer, options, outcomes);
        return jobs.stream().map(outcomes::get).toList();
    }

    /** A claimed job with its payload read, or the outcome of a job that must not run. */
    private record Prepared(ClaimedJob job, Object payload, ClaimedJobContext context, Outcome refused) {
    }

    /** Reads the payload, or gives the job up if its attempts are used up or its payload does not fit. */
    private Prepared prepare(ClaimedJob job, ConsumerMethod consumer, QueueOptions options) {
        if (job.attempt() > options.maxAttempts()) {
            return refused(job, giveUp(job, "gave up after " + options.maxAttempts()
                    + " attempts: the lease of the last attempt expired before it finished"));
        }
        Object payload;
        try {
            payload = codec.fromJson(job.payload(), consumer.payloadType());
        } catch (RuntimeException e) {
            return refused(job, giveUp(job, Messages.undeserialisablePayload(consumer.method(), e)));
        }
        if (options.strictPayload()) {
            List<String> differences = PayloadShape.differences(job.payload(), codec.toJsonWithNulls(payload));
            if (!differences.isEmpty()) {
                return refused(job, giveUp(job, Messages.payloadDoesNotMatch(consumer.method(), differences)));
            }
        }
        ClaimedJobContext context = new ClaimedJobContext(JobId.parse(job.id()), job.queue(), job.attempt(),
                job.enqueuedAt());
        metrics.waited(job.queue(), Duration.between(job.dueAt(), clock.instant()));
        return new Prepared(job, payload, context, null);
    }

    private static Prepared refused(ClaimedJob job, Outcome outcome) {
        return new Prepared(job, null, null, outcome);
    }

    private void runTogether(List<Prepared> batch, ConsumerMethod consumer, QueueOptions options,
            Map<ClaimedJob, Outcome> outcomes) {
        if (batch.size() <= 1) {
            batch.forEach(prepared -> outcomes.put(prepared.job(), runAlone(prepared, consumer, options)));
            return;
        }
        Instant started = clock.instant();
        List<Finish> finishes;
        try {
            finishes = transactions.inConsumerTransaction(() -> {
                invoker.invoke(consumer, batch.stream().map(Prepared::payload).toList(),
                        batch.stream().<JobContext>map(Prepared::context).toList());
                if (transactions.isRollbackOnly()) {
                    throw new RollbackOnlyException(Messages.rollbackOnly(consumer.method()));
                }
                List<Finish> done = new ArrayList<>();
                for (Prepared prepared : batch) {
                    done.add(completeOrThrow(prepared.job(), options));
                }
                return done;
            });
        } catch (Throwable e) {
            LOG.fine(() -> "jobqueue: a call of " + consumer.describe() + " with " + batch.size() + " jobs failed,"
                    + " so they run again in two halves: " + unwrap(e));
            int half = batch.size() / 2;
            runTogether(batch.subList(0, half), consumer, options, outcomes);
            runTogether(batch.subList(half, batch.size()), consumer, options, outcomes);
            return;
        }
        Duration each = Duration.between(started, clock.instant()).dividedBy(batch.size());
        finishes.forEach(this::announce);
        for (Prepared prepared : batch) {
            metrics.executed(prepared.job().queue(), each);
            metrics.finished(prepared.job().queue(), JobMetrics.Outcome.DONE);
            outcomes.put(prepared.job(), Outcome.DONE);
        }
    }

    private Outcome runAlone(Prepared prepared, ConsumerMethod consumer, QueueOptions options) {
        ClaimedJob job = prepared.job();
        List<Object> payloads = Collections.singletonList(prepared.payload());
        List<JobContext> contexts = List.of(prepared.context());
        Instant started = clock.instant();
        try {
            Finish finish;
            if (options.transactional()) {
                finish = transactions.inConsumerTransaction(() -> {
                    invoker.invoke(consumer, payloads, contexts);
                    // Marked rollback-only, the transaction would roll back without an error: not DONE.
                    if (transactions.isRollbackOnly()) {
                        throw new RollbackOnlyException(Messages.rollbackOnly(consumer.method()));
                    }
                    return completeOrThrow(job, options);
                });
            } else {
                invoker.invoke(consumer, payloads, contexts);
                if (job.group() == null && job.orderingKey() == null) {
                    return Outcome.SUCCEEDED;
                }
                finish = completeOrThrow(job, options);
            }
            announce(finish);
            LOG.fine(() -> "jobqueue: job " + job.id() + " on queue " + job.queue() + " is DONE after attempt "
                    + job.attempt());
            metrics.finished(job.queue(), JobMetrics.Outcome.DONE);
            return Outcome.DONE;
        } catch (LeaseLostException e) {
            LOG.warning("jobqueue: " + e.getMessage());
            return Outcome.LEASE_LOST;
        } catch (Throwable e) {
            Throwable error = unwrap(e);
            boolean success = !(error instanceof RollbackOnlyException) && options.countsAsSuccess(error);
            return success ? doneDespite(job, options, error) : afterFailure(job, options, error);
        } finally {
            metrics.executed(job.queue(), Duration.between(started, clock.instant()));
        }
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
                announce(completeOrThrow(job, options));
                metrics.finished(job.queue(), JobMetrics.Outcome.DONE);
            } catch (LeaseLostException e) {
                LOG.warning("jobqueue: " + e.getMessage());
            } catch (RuntimeException e) {
                notRecorded(job, e);
            }
        }
    }

    private Finish completeOrThrow(ClaimedJob job, QueueOptions options) throws LeaseLostException {
        boolean retain = !options.retention().isZero();
        return store.complete(job, clock.instant(), retain)
                .orElseThrow(() -> new LeaseLostException(job.id(), job.queue()));
    }

    /** After the finishing transaction committed: wakes released queues and fires the follow-on events. */
    private void announce(Finish finish) {
        finish.releasedQueues().forEach(dispatcher::wake);
        Instant now = clock.instant();
        for (FailedDependent dependent : finish.failedDependents()) {
            LOG.warning("jobqueue: job " + dependent.id() + " on queue " + dependent.queue() + " is FAILED: "
                    + dependent.reason());
            metrics.finished(dependent.queue(), JobMetrics.Outcome.FAILED);
            Observers.notify(failures, new JobFailed(JobId.parse(dependent.id()), dependent.queue(), 0,
                    dependent.reason(), now), LOG);
        }
        finish.finishedGroups().forEach((group, counts) -> {
            LOG.info(() -> "jobqueue: group " + group + " is finished: " + counts);
            Observers.notify(groupsFinished, new GroupFinished(group, counts.get(JobState.DONE),
                    counts.get(JobState.FAILED), now), LOG);
        });
    }

    private Outcome doneDespite(ClaimedJob job, QueueOptions options, Throwable error) {
        try {
            announce(completeOrThrow(job, options));
            LOG.info(() -> "jobqueue: job " + job.id() + " on queue " + job.queue() + " is DONE: its consumer threw "
                    + error + ", which the queue counts as success");
            metrics.finished(job.queue(), JobMetrics.Outcome.DONE);
            return Outcome.DONE;
        } catch (LeaseLostException e) {
            LOG.warning("jobqueue: " + e.getMessage());
            return Outcome.LEASE_LOST;
        } catch (RuntimeException storeError) {
            return notRecorded(job, storeError);
        }
    }

    private Outcome afterFailure(ClaimedJob job, QueueOptions options, Throwable error) {
        if (job.attempt() >= options.maxAttempts()) {
            return giveUp(job, ErrorText.of(error));
        }
        Duration delay = options.backoff().delayAfter(job.attempt(), ThreadLocalRandom.current()::nextDouble);
        Instant now = clock.instant();
        Instant nextRunAt = now.plus(delay);
        String errorText = ErrorText.of(error);
        try {
            if (!store.retryLater(job.id(), job.leaseToken(), job.attempt(), now, nextRunAt, errorText)) {
                return Outcome.LEASE_LOST;
            }
        } catch (RuntimeException storeError) {
            return notRecorded(job, storeError);
        }
        LOG.info(() -> "jobqueue: job " + job.id() + " on queue " + job.queue() + " failed attempt "
                + job.attempt() + " of " + options.maxAttempts() + " and runs again in " + delay + ": " + error);
        metrics.finished(job.queue(), JobMetrics.Outcome.RETRIED);
        dispatcher.wakeWhenRetryDue(job.queue(), nextRunAt);
        Observers.notify(retries, new JobRetried(JobId.parse(job.id()), job.queue(), job.attempt(), errorText, now,
                nextRunAt), LOG);
        return Outcome.RETRY;
    }

    private Outcome giveUp(ClaimedJob job, String reason) {
        Instant now = clock.instant();
        Optional<Finish> finish;
        try {
            finish = store.fail(job, now, reason);
        } catch (RuntimeException storeError) {
            return notRecorded(job, storeError);
        }
        if (finish.isEmpty()) {
            return Outcome.LEASE_LOST;
        }
        LOG.warning("jobqueue: job " + job.id() + " on queue " + job.queue() + " is FAILED after attempt "
                + job.attempt() + ": " + firstLine(reason));
        metrics.finished(job.queue(), JobMetrics.Outcome.FAILED);
        Observers.notify(failures, new JobFailed(JobId.parse(job.id()), job.queue(), job.attempt(), reason, now),
                LOG);
        announce(finish.get());
        return Outcome.FAILED;
    }

    private static Outcome notRecorded(ClaimedJob job, RuntimeException storeError) {
        LOG.warning("jobqueue: cannot record the outcome of job " + job.id() + " on queue " + job.queue()
                + "; it runs again once its lease expires: " + storeError);
        return Outcome.NOT_RECORDED;
    }

    private static Throwable unwrap(Throwable error) {
        if (error instanceof TransactionalException && error.getCause() != null) {
            return error.getCause();
        }
        return error;
    }

    private static String firstLine(String text) {
        int end = text.indexOf('\n');
        return end < 0 ? text : text.substring(0, end);
    }
}
