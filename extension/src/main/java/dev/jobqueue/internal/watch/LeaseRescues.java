package dev.jobqueue.internal.watch;

import dev.jobqueue.JobId;
import dev.jobqueue.LeaseRescued;
import dev.jobqueue.internal.dispatch.Dispatcher;
import dev.jobqueue.internal.dispatch.Observers;
import dev.jobqueue.internal.metrics.JobMetrics;
import dev.jobqueue.internal.store.RescuedJob;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;
import java.util.logging.Logger;

/**
 * Tells of jobs whose leases were taken back: a warning each, the metric, the {@link LeaseRescued} event, and a
 * wake-up of their queues, so that they are claimed now, from the first due job, rather than at the next poll.
 */
@ApplicationScoped
public class LeaseRescues {

    private static final Logger LOG = Logger.getLogger(LeaseRescues.class.getName());

    @Inject
    JobMetrics metrics;

    @Inject
    Event<LeaseRescued> events;

    @Inject
    Dispatcher dispatcher;

    /**
     * @param reasonOf why each job's attempt was cut short, as its error
     * @param now      when they were taken back, on the lease clock
     */
    void report(List<RescuedJob> jobs, Function<RescuedJob, String> reasonOf, Instant now) {
        for (RescuedJob job : jobs) {
            String reason = reasonOf.apply(job);
            LOG.warning("jobqueue: job " + job.id() + " on queue " + job.queue() + " is PENDING again: " + reason);
            metrics.leaseRescued(job.queue());
            Observers.notify(events, new LeaseRescued(JobId.parse(job.id()), job.queue(), job.attempt(), reason,
                    job.leaseExpiredAt(), now), LOG);
        }
        jobs.stream().map(RescuedJob::queue).distinct().forEach(dispatcher::rewind);
    }
}
