package dev.jobqueue.internal.dispatch;

import dev.jobqueue.JobContext;
import dev.jobqueue.QueueBackoffException;
import dev.jobqueue.internal.Messages;
import dev.jobqueue.internal.SafeText;
import dev.jobqueue.internal.config.QueueOptions;
import dev.jobqueue.internal.consumer.ConsumerMethod;
import dev.jobqueue.internal.metrics.JobMetrics;
import dev.jobqueue.internal.store.ClaimedJob;
import dev.jobqueue.internal.store.ConnectionLoss;
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
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;

/**
 * Runs several jobs in one transaction that also marks them all DONE: one call of a batch consumer, or for a
 * consumer of one job per call (jobs-per-transaction) a call each, in order. When the server traces, the
 * transaction has one span that links to the spans that put the jobs. A transaction that fails runs again in two
 * halves, and so on, until the failing job runs alone and fails as it would in a consumer of one job per call.
 * A job whose lease another attempt took is no failure: it leaves, and the others run again once, together.
 * A backoff ends the call, and a node that stops calls none of its jobs again.
 */
@ApplicationScoped
class BatchCall {

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
    SingleJobCall single;

    @Inject
    JobMetrics metrics;

    @Inject
    JobTracing tracing;

    @Inject
    Dispatcher dispatcher;

    /** Runs the jobs, and puts each one's outcome in {@code outcomes}. */
    void run(List<PreparedJob> batch, ConsumerMethod consumer, QueueOptions options,
            Map<ClaimedJob, Outcome> outcomes) {
        if (batch.size() <= 1) {
            batch.forEach(prepared -> outcomes.put(prepared.job(), single.run(prepared, consumer, options)));
            return;
        }
        Instant started = clock.instant();
        // Set once the consumer has returned: what fails after that is the jobs' DONE or the commit.
        boolean[] completing = {false};
        List<Finish> finishes;
        ConsumerSpan span = tracing.start(options.queue(),
                batch.stream().map(prepared -> prepared.job().traced()).toList(), options.traceParent());
        try {
            finishes = transactions.inConsumerTransaction(() -> {
                invokeAll(batch, consumer);
                completing[0] = true;
                return completeEach(batch, options);
            });
        } catch (LeasesLost e) {
            span.end(Outcome.LEASE_LOST.name(), null, true);
            e.jobs.forEach(job -> {
                LOG.warning("jobqueue: " + new LeaseLostException(job.id(), job.queue()).getMessage());
                outcomes.put(job, Outcome.LEASE_LOST);
            });
            List<PreparedJob> rest = batch.stream().filter(prepared -> !e.jobs.contains(prepared.job())).toList();
            if (dispatcher.stopping()) {
                handBackAtStop(rest, outcomes);
                return;
            }
            LOG.fine(() -> "jobqueue: a call of " + consumer.describe() + " rolled back because " + e.jobs.size()
                    + " of its jobs lost their leases; the other " + rest.size() + " run again in one call");
            run(rest, consumer, options, outcomes);
            return;
        } catch (Throwable e) {
            endFailed(batch, consumer, options, outcomes, e, completing[0], span);
            return;
        }
        span.end(Outcome.DONE.name(), null, false);
        Duration each = Duration.between(started, clock.instant()).dividedBy(batch.size());
        finishes.forEach(recorder::announce);
        for (PreparedJob prepared : batch) {
            metrics.executed(prepared.job().queue(), each);
            metrics.finished(prepared.job().queue(), JobMetrics.Outcome.DONE);
            outcomes.put(prepared.job(), Outcome.DONE);
        }
    }

    /**
     * The call, or its commit, threw and rolled back. A backoff ends the call: its jobs go back with their attempts
     * not counted, as one job's would. A lost connection while completing hands every job back, unless one of them
     * has been handed back as often as it may; then, as for any other failure, the jobs run again in two halves,
     * unless the node is stopping: then none is called again here, and each is handed back.
     */
    private void endFailed(List<PreparedJob> batch, ConsumerMethod consumer, QueueOptions options,
            Map<ClaimedJob, Outcome> outcomes, Throwable e, boolean completing, ConsumerSpan span) {
        List<ClaimedJob> jobs = batch.stream().map(PreparedJob::job).toList();
        QueueBackoffException backoff = completing ? null : AttemptErrors.backoffIn(AttemptErrors.causeOf(e));
        if (backoff != null) {
            span.end(Outcome.BACKED_OFF.name(), e, true);
            List<Outcome> backedOff = recorder.backOff(jobs, backoff);
            for (int i = 0; i < jobs.size(); i++) {
                outcomes.put(jobs.get(i), backedOff.get(i));
            }
            return;
        }
        boolean connectionLost = completing && ConnectionLoss.causedBy(e);
        if (connectionLost && recorder.mayHandBackAll(jobs)) {
            // No job is to blame, and no half would fare better on the lost connection: each is handed back.
            span.end(Outcome.HANDED_BACK.name(), e, true);
            batch.forEach(prepared -> outcomes.put(prepared.job(), recorder.failed(prepared.job(), options, e, true)));
            return;
        }
        span.end("SPLIT", e, true);
        if (dispatcher.stopping()) {
            handBackAtStop(batch, outcomes);
            return;
        }
        LOG.fine(() -> "jobqueue: a call of " + consumer.describe() + " with " + batch.size() + " jobs failed,"
                + " so they run again in two halves: " + SafeText.of(String.valueOf(AttemptErrors.causeOf(e))));
        int half = batch.size() / 2;
        run(batch.subList(0, half), consumer, options, outcomes);
        run(batch.subList(half, batch.size()), consumer, options, outcomes);
    }

    private void handBackAtStop(List<PreparedJob> batch, Map<ClaimedJob, Outcome> outcomes) {
        LOG.fine(() -> "jobqueue: a call of " + batch.size() + " jobs ended while this node stops; they are handed"
                + " back and not called again here");
        batch.forEach(prepared -> outcomes.put(prepared.job(), recorder.handBackAtStop(prepared.job())));
    }

    /**
     * Calls the consumer: once with every job if it is a batch consumer, else once per job, in order. Stops at a
     * call that marked the transaction rollback-only, which would otherwise roll back without an error.
     */
    private void invokeAll(List<PreparedJob> batch, ConsumerMethod consumer) throws Exception {
        if (consumer.batch()) {
            invoker.invoke(consumer, batch.stream().map(PreparedJob::payload).toList(),
                    batch.stream().<JobContext>map(PreparedJob::context).toList());
            refuseRollbackOnly(consumer);
            return;
        }
        for (PreparedJob prepared : batch) {
            invoker.invoke(consumer, Collections.singletonList(prepared.payload()), List.of(prepared.context()));
            refuseRollbackOnly(consumer);
        }
    }

    private void refuseRollbackOnly(ConsumerMethod consumer) {
        if (transactions.isRollbackOnly()) {
            throw new RollbackOnlyException(Messages.rollbackOnly(consumer.method()));
        }
    }

    /**
     * Marks every job of a call DONE, in its transaction. If any lease was lost, throws naming every such job,
     * so that the call rolls back and runs again without them.
     */
    private List<Finish> completeEach(List<PreparedJob> batch, QueueOptions options) throws LeasesLost {
        List<Finish> done = new ArrayList<>();
        List<ClaimedJob> lost = new ArrayList<>();
        for (PreparedJob prepared : batch) {
            try {
                done.add(recorder.complete(prepared.job(), options));
            } catch (LeaseLostException e) {
                lost.add(prepared.job());
            }
        }
        if (!lost.isEmpty()) {
            throw new LeasesLost(lost);
        }
        return done;
    }

    /** Jobs of one call whose leases another attempt took: the call must not commit. */
    private static final class LeasesLost extends Exception {

        private static final long serialVersionUID = 1L;

        private final transient List<ClaimedJob> jobs;

        LeasesLost(List<ClaimedJob> jobs) {
            super(null, null, false, false);
            this.jobs = jobs;
        }
    }
}
