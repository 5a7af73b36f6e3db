package dev.jobqueue.failure.app;

import dev.jobqueue.Consumer;
import dev.jobqueue.JobContext;
import dev.jobqueue.QueueBackoffException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.SQLException;
import java.time.Duration;

/**
 * The queues of the flow-control scenarios, each with a cluster-wide limit: more runners on three nodes than the
 * limit allows, so that only the limit holds them back.
 */
@ApplicationScoped
public class FlowConsumers {

    @Inject
    Effects effects;

    @Consumer(queue = "rate-limited", rateLimit = "50/1s", concurrency = 8)
    public void rateLimited(Work work, JobContext job) throws SQLException, InterruptedException {
        run(work, job);
    }

    @Consumer(queue = "max-running", maxRunning = 5, concurrency = 4)
    public void maxRunning(Work work, JobContext job) throws SQLException, InterruptedException {
        run(work, job);
    }

    /**
     * A partner that answers "429, retry after" the first time it sees a job whose work time is negative: the
     * queue backs off for that long. (The attempt is not counted, so the job's next attempt is its first again.)
     */
    @Consumer(queue = "partner", maxRunning = 6, concurrency = 4)
    public void partner(Work work, JobContext job) throws SQLException, InterruptedException {
        effects.logStart(job, work);
        if (work.millis() < 0 && effects.starts(job) == 1) {
            throw new QueueBackoffException(Duration.ofMillis(-work.millis()), "partner: 429 Too Many Requests");
        }
        effects.apply(job, new Work(work.n(), Math.max(0, work.millis())));
    }

    private void run(Work work, JobContext job) throws SQLException, InterruptedException {
        effects.logStart(job, work);
        effects.apply(job, work);
    }
}
