package dev.jobqueue.portable.kit;

import java.util.List;

/** How a system puts jobs: the producer calls it with up to {@code PRODUCER_BATCH_MAX} jobs at a time. */
@FunctionalInterface
public interface JobSink {

    /**
     * Puts the jobs, all or none.
     *
     * @param jobs the jobs
     * @throws Exception when they were not put; the producer waits a little and goes on
     */
    void put(List<BenchJob> jobs) throws Exception;
}
