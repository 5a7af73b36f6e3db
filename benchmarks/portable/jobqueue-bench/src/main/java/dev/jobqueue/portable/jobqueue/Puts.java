package dev.jobqueue.portable.jobqueue;

import dev.jobqueue.JobQueue;
import dev.jobqueue.portable.kit.BenchJob;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.util.List;

/** The producer's puts: each batch in one transaction, one {@link JobQueue#put} per job. */
@ApplicationScoped
public class Puts {

    @Inject
    JobQueue jobs;

    /**
     * Puts the jobs on the queue, all or none.
     *
     * @param queue the queue
     * @param batch the jobs
     */
    @Transactional
    public void putAll(String queue, List<BenchJob> batch) {
        for (BenchJob job : batch) {
            jobs.put(queue, job);
        }
    }
}
