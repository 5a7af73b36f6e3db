package dev.jobqueue.it.broken;

import dev.jobqueue.Consumer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/**
 * A non-transactional batch consumer, a consumer of one payload that the configuration gives a jobs-per-call
 * (broken-batch/microprofile-config.properties), and jobs-per-transaction on a non-transactional consumer and on
 * a batch consumer.
 */
@ApplicationScoped
public class BadBatchOptionsConsumers {

    @Consumer(queue = "batch-not-transactional", jobsPerCall = 10, transactional = false)
    public void notTransactional(List<String> payloads) {
    }

    @Consumer(queue = "batch-configured-single")
    public void single(String payload) {
    }

    @Consumer(queue = "grouped-not-transactional", jobsPerTransaction = 4, transactional = false)
    public void groupedNotTransactional(String payload) {
    }

    @Consumer(queue = "grouped-batch", jobsPerCall = 10, jobsPerTransaction = 4)
    public void groupedBatch(List<String> payloads) {
    }
}
