package dev.jobqueue.internal.dispatch;

import dev.jobqueue.JobFailed;
import dev.jobqueue.JobId;
import dev.jobqueue.JobRetried;
import dev.jobqueue.QueueBackoffException;
import dev.jobqueue.internal.Messages;
import dev.jobqueue.internal.SafeText;
import dev.jobqueue.internal.config.Durations;
import dev.jobqueue.internal.config.QueueOptions;
import dev.jobqueue.internal.metrics.JobMetrics;
import dev.jobqueue.internal.store.ClaimedJob;
import dev.jobqueue.internal.store.ConnectionLoss;
import dev.jobqueue.internal.store.ErrorText;
import dev.jobqueue.internal.store.Finish;
import dev.jobqueue.internal.store.FinishStore;
import dev.jobqueue.internal.store.LeaseStore;
import dev.jobqueue.internal.task.OutageLog;
import dev.jobqueue.internal.time.JobQueueClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.logging.Logger;

/**
 * Writes how an attempt ended, each write fenced by the attempt's lease: DONE, a retry after the backoff, or
 * FAILED. Then announces what the write changed: the queues it released are woken, and the events fire.
 *
 * <p>A database outage or failover makes many attempts fail at once, and their outcomes unwritable: it is logged
 * once when it starts and once when a finish is written again, not once per job.
 */
@ApplicationScoped
class AttemptRecorder {

    /** The executor's logger: its lines keep the name that logging settings and tests know them by. */
    private static final Logger LOG = Logger.getLogger(JobExecutor.class.getName());

    @Inject
    @JobQueueClock
    Clock clock;

    @Inject
    FinishStore store;

    @Inject
    Event<JobFailed> failures;

    @Inject
    Event<JobRetried> retries;

    @Inject
    FinishAnnouncer announcer;

    @Inject
    Dispatcher dispatcher;

    @Inject
    JobMetrics metrics;

    @Inject
    LeaseStore leases;

    @Inject
    UnsettledLeases unsettled;

    private final LostCompletions lostCompletions = new LostCompletions();

    private final OutageLog outage = new OutageLog(LOG, "the jobs finishing on this node", "each runs again: at"
            + " once, with its attempt not counted, if the attempt lost its connection; otherwise when its lease expires");

    /** Marks the job DONE, in the caller's transaction if there is one; throws if its lease was lost. */
    Finish complete(ClaimedJob job, QueueOptions options) throws LeaseLostException {
        boolean retain = !options.retention().isZero();
        return store.complete(job, clock.instant(), retain)
                .orElseThrow(() -> new LeaseLostException(job.id(), job.queue()));
    }

    /** After the finishing transaction committed: wakes released queues and fires the follow-on events. */
    void announce(Finish finish) {
        outage.succeeded();
        announcer.announce(finish);
    }

    /**
     * The consumer threw, or its transaction could not commit, and everything it wrote rolled back. The job is
     * DONE if its queue counts the error as success; otherwise it runs again after its backoff, or is FAILED. If
     * the job's DONE, or the commit of its transaction, failed because the database connection was lost, the
     * consumer is not to blame: the job is handed back (see {@link #handBack}), up to {@value
     * LostCompletions#FREE_HAND_BACKS} times in {@link LostCompletions#WINDOW}. After that its attempt counts, with JQ046.
     *
     * @param completing whether the consumer had returned, and jobqueue was writing the job's DONE or committing
     */
    Outcome failed(ClaimedJob job, QueueOptions options, Throwable thrown, boolean completing) {
        if (completing && ConnectionLoss.causedBy(thrown)) {
            if (lostCompletions.tryHandBack(job.id(), clock.instant())) {
                return handBack(job, options, thrown);
            }
            lostCompletions.forget(job.id());
            String reason = Messages.completionNotWritten(job.id(), job.queue(), LostCompletions.FREE_HAND_BACKS,
                    LostCompletions.WINDOW);
            LOG.warning("jobqueue: " + reason + ": " + SafeText.of(String.valueOf(thrown)));
            return retryOrGiveUp(job, options, new AttemptErrors.CompletionNotWritten(reason, thrown));
        }
        Throwable error = AttemptErrors.causeOf(thrown);
        QueueBackoffException backoff = AttemptErrors.backoffIn(error);
        if (backoff != null) {
            return backOff(job, backoff);
        }
        boolean success = !(error instanceof RollbackOnlyException) && options.countsAsSuccess(error);
        return success ? doneDespite(job, options, error) : retryOrGiveUp(job, options, error);
    }

    /**
     * Whether every job of a call that lost its connection while completing may be handed back once more; if not,
     * the call is split, so that the job that cannot complete comes to count its attempt alone.
     */
    boolean mayHandBackAll(List<ClaimedJob> jobs) {
        Instant now = clock.instant();
        return jobs.stream().allMatch(job -> lostCompletions.mayHandBack(job.id(), now));
    }

    /**
     * The node is stopping and a call of several jobs failed: no call of them is made again here, since their
     * leases may be released already and another node may run them. Each is handed back, fenced by its lease, its
     * attempt not counted.
     */
    Outcome handBackAtStop(ClaimedJob job) {
        try {
            leases.release(List.of(job));
        } catch (RuntimeException storeError) {
            return notRecorded(job, storeError);
        }
        return Outcome.HANDED_BACK;
    }

    /** Gives the job up: it becomes FAILED with {@code reason}, and so do the jobs that wait for it. */
    Outcome giveUp(ClaimedJob job, String reason) {
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
                + job.attempt() + ": " + SafeText.of(AttemptErrors.firstLine(reason)));
        metrics.finished(job.queue(), JobMetrics.Outcome.FAILED);
        Observers.notify(failures, new JobFailed(JobId.parse(job.id()), job.queue(), job.attempt(), reason, now),
                LOG);
        announce(finish.get());
        return Outcome.FAILED;
    }

    /** The outcome could not be written: the job runs again once its lease expires. */
    Outcome notRecorded(ClaimedJob job, RuntimeException storeError) {
        outage.failed(storeError);
        LOG.fine(() -> "jobqueue: cannot record the outcome of job " + job.id() + " on queue " + job.queue()
                + "; it runs again once its lease expires: " + storeError);
        return Outcome.NOT_RECORDED;
    }

    /**
     * A job's DONE or commit lost its database connection, or the database stopped taking writes (a failover): the
     * attempt rolled back, or, if only the answer to its commit was lost, the job is DONE. Neither is the job's
     * fault (a non-transactional consumer's work is done, and it runs again, as at least once allows). It is handed back with the attempt not counted, fenced by its lease, so a DONE stays DONE,
     * and runs again at once; if the database cannot take that either, it runs again once its lease expires.
     */
    private Outcome handBack(ClaimedJob job, QueueOptions options, Throwable lost) {
        outage.failed(lost);
        try {
            leases.release(List.of(job));
        } catch (RuntimeException storeError) {
            unsettled.handBackFailed(job, options.lease());
            LOG.fine(() -> "jobqueue: cannot hand back job " + job.id() + " on queue " + job.queue()
                    + " now; the lease keeper tries again: " + storeError);
            return Outcome.NOT_RECORDED;
        }
        LOG.fine(() -> "jobqueue: job " + job.id() + " on queue " + job.queue() + " lost its database connection in"
                + " attempt " + job.attempt() + " and runs again, the attempt not counted: " + lost);
        dispatcher.rewind(job.queue());
        return Outcome.HANDED_BACK;
    }

    /**
     * The consumer told the queue to back off: the job runs again when the wait is over, its attempt not counted,
     * and no node claims the queue's jobs until then. This node hands back the jobs it claimed and has not started.
     */
    private Outcome backOff(ClaimedJob job, QueueBackoffException backoff) {
        return backOff(List.of(job), backoff).get(0);
    }

    /**
     * A call of several jobs told the queue to back off: each of its jobs goes back as one job's would, its attempt
     * not counted, and the backoff is logged once.
     *
     * @return each job's outcome, in the order given
     */
    List<Outcome> backOff(List<ClaimedJob> jobs, QueueBackoffException backoff) {
        Duration wait = backoff.getWait().compareTo(Durations.MAX) > 0 ? Durations.MAX : backoff.getWait();
        // The node's clock, as for run times and retries: claims compare the backoff's end with it.
        Instant now = clock.instant();
        Instant until = now.plus(wait);
        List<Outcome> outcomes = jobs.stream().map(job -> {
            try {
                return store.backOff(job, until, now) ? Outcome.BACKED_OFF : Outcome.LEASE_LOST;
            } catch (RuntimeException storeError) {
                return notRecorded(job, storeError);
            }
        }).toList();
        if (outcomes.contains(Outcome.BACKED_OFF)) {
            ClaimedJob first = jobs.get(0);
            LOG.info(() -> "jobqueue: the consumer of queue " + first.queue() + " told it to back off for " + wait
                    + " (" + SafeText.of(backoff.getMessage()) + "); no node claims its jobs until " + until + ", and "
                    + (jobs.size() == 1 ? "job " + first.id() + " runs again then, attempt " + first.attempt()
                    : "the " + jobs.size() + " jobs of its call run again then, their attempts") + " not counted");
            dispatcher.backOff(first.queue(), until);
        }
        return outcomes;
    }

    private Outcome doneDespite(ClaimedJob job, QueueOptions options, Throwable error) {
        try {
            announce(complete(job, options));
            LOG.info(() -> "jobqueue: job " + job.id() + " on queue " + job.queue() + " is DONE: its consumer threw "
                    + SafeText.of(String.valueOf(error)) + ", which the queue counts as success");
            metrics.finished(job.queue(), JobMetrics.Outcome.DONE);
            return Outcome.DONE;
        } catch (LeaseLostException e) {
            LOG.warning("jobqueue: " + e.getMessage());
            return Outcome.LEASE_LOST;
        } catch (RuntimeException storeError) {
            return notRecorded(job, storeError);
        }
    }

    private Outcome retryOrGiveUp(ClaimedJob job, QueueOptions options, Throwable error) {
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
                + job.attempt() + " of " + options.maxAttempts() + " and runs again in " + delay + ": "
                + SafeText.of(String.valueOf(error)));
        metrics.finished(job.queue(), JobMetrics.Outcome.RETRIED);
        dispatcher.wakeWhenRetryDue(job.queue(), nextRunAt);
        Observers.notify(retries, new JobRetried(JobId.parse(job.id()), job.queue(), job.attempt(), errorText, now,
                nextRunAt), LOG);
        return Outcome.RETRY;
    }
}
