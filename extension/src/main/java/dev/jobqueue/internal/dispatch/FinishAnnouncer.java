package dev.jobqueue.internal.dispatch;

import dev.jobqueue.GroupFinished;
import dev.jobqueue.JobCancelled;
import dev.jobqueue.JobFailed;
import dev.jobqueue.JobId;
import dev.jobqueue.internal.SafeText;
import dev.jobqueue.internal.metrics.JobMetrics;
import dev.jobqueue.internal.store.Cancels;
import dev.jobqueue.internal.store.FailedDependent;
import dev.jobqueue.internal.store.Finish;
import dev.jobqueue.internal.store.JobState;
import dev.jobqueue.internal.time.JobQueueClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.logging.Logger;

/**
 * After a transaction that finished jobs committed, on the node that wrote it: wakes the queues whose jobs it
 * released, and fires the events, {@link JobCancelled}, {@link JobFailed} for the jobs that failed with them and
 * {@link GroupFinished}, each once.
 */
@ApplicationScoped
public class FinishAnnouncer {

    /** The executor's logger: its lines keep the name that logging settings and tests know them by. */
    private static final Logger LOG = Logger.getLogger(JobExecutor.class.getName());

    @Inject
    @JobQueueClock
    Clock clock;

    @Inject
    Event<JobFailed> failures;

    @Inject
    Event<JobCancelled> cancels;

    @Inject
    Event<GroupFinished> groupsFinished;

    @Inject
    Dispatcher dispatcher;

    @Inject
    JobMetrics metrics;

    /** What finishing jobs did beyond the jobs themselves. */
    public void announce(Finish finish) {
        finish.releasedQueues().forEach(dispatcher::rewind);
        Instant now = clock.instant();
        for (FailedDependent dependent : finish.failedDependents()) {
            LOG.warning("jobqueue: job " + dependent.id() + " on queue " + dependent.queue() + " is FAILED: "
                    + dependent.reason());
            metrics.finished(dependent.queue(), JobMetrics.Outcome.FAILED);
            Observers.notify(failures, new JobFailed(JobId.parse(dependent.id()), dependent.queue(), 0,
                    dependent.reason(), now), LOG);
        }
        finish.finishedGroups().forEach((group, counts) -> {
            LOG.info(() -> "jobqueue: group " + SafeText.of(group) + " is finished: " + counts);
            Observers.notify(groupsFinished, new GroupFinished(group, counts.get(JobState.DONE),
                    counts.get(JobState.FAILED), counts.get(JobState.CANCELLED), now), LOG);
        });
    }

    /** The jobs an operator cancelled, and what that did. */
    public void announce(Cancels.Result cancelled) {
        Instant now = clock.instant();
        for (Cancels.CancelledJob job : cancelled.jobs()) {
            metrics.finished(job.queue(), JobMetrics.Outcome.CANCELLED);
            Observers.notify(cancels, new JobCancelled(JobId.parse(job.id()), job.queue(), now), LOG);
        }
        announce(cancelled.finish());
    }
}
