package dev.jobqueue.failure.app;

import dev.jobqueue.Consumer;
import dev.jobqueue.JobContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.SQLException;

/** Four work queues, a queue with a long lease and the queue of the order endpoint; all transactional. */
@ApplicationScoped
public class ChaosConsumers {

    @Inject
    Effects effects;

    @Consumer(queue = "work-1")
    public void work1(Work work, JobContext job) throws SQLException, InterruptedException {
        run(work, job);
    }

    @Consumer(queue = "work-2")
    public void work2(Work work, JobContext job) throws SQLException, InterruptedException {
        run(work, job);
    }

    @Consumer(queue = "work-3")
    public void work3(Work work, JobContext job) throws SQLException, InterruptedException {
        run(work, job);
    }

    @Consumer(queue = "work-4")
    public void work4(Work work, JobContext job) throws SQLException, InterruptedException {
        run(work, job);
    }

    /** Slow work under a five-minute lease: only a node's own restart, not an expiry, brings it back soon. */
    @Consumer(queue = "long-lease")
    public void longLease(Work work, JobContext job) throws SQLException, InterruptedException {
        run(work, job);
    }

    @Consumer(queue = "orders")
    public void order(Work work, JobContext job) throws SQLException, InterruptedException {
        run(work, job);
    }

    private void run(Work work, JobContext job) throws SQLException, InterruptedException {
        effects.logStart(job, work);
        effects.apply(job, work);
    }
}
