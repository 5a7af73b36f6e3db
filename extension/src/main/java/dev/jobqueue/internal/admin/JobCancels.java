package dev.jobqueue.internal.admin;

import dev.jobqueue.CancelOutcome;
import dev.jobqueue.JobId;
import dev.jobqueue.internal.dispatch.FinishAnnouncer;
import dev.jobqueue.internal.store.Cancels;
import dev.jobqueue.internal.store.JobFilter;
import dev.jobqueue.internal.time.JobQueueClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;

/**
 * An operator's cancels, of one job, of jobs by id and of every job that matches a filter: the store's
 * {@link Cancels}, then, once that committed, the events and log lines that follow.
 */
@ApplicationScoped
public class JobCancels {

    private static final Logger LOG = Logger.getLogger(DefaultJobAdmin.class.getName());

    @Inject
    Cancels cancels;

    @Inject
    FinishAnnouncer announcer;

    @Inject
    @JobQueueClock
    Clock clock;

    /** See {@link dev.jobqueue.JobAdmin#cancel}. */
    public CancelOutcome cancel(JobId id) {
        Cancels.Answer answer = cancels.cancel(id.toString(), clock.instant());
        announcer.announce(answer.result());
        LOG.info(() -> "jobqueue admin: cancel of job " + id + ": " + answer.outcome());
        return answer.outcome();
    }

    /** Cancels the jobs among {@code ids} that have not started, in one transaction; returns how many. */
    public int cancelSelected(List<String> ids) {
        Cancels.Result result = cancels.cancelSelected(ids, clock.instant());
        announcer.announce(result);
        LOG.info(() -> "jobqueue admin: " + result.jobs().size() + " of " + ids.size() + " selected jobs CANCELLED");
        return result.jobs().size();
    }

    /**
     * Cancels every job that matches {@code filter} and has not started, a chunk per transaction, each chunk's
     * events once it committed; returns how many.
     */
    public int cancelMatching(JobFilter filter) {
        AtomicInteger cancelled = new AtomicInteger();
        cancels.cancelMatching(filter, clock.instant(), chunk -> {
            cancelled.addAndGet(chunk.jobs().size());
            announcer.announce(chunk);
        });
        LOG.info(() -> "jobqueue admin: " + cancelled.get() + " jobs CANCELLED");
        return cancelled.get();
    }
}
