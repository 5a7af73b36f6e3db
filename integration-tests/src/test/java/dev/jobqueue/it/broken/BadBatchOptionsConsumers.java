package dev.jobqueue.it.broken;

import dev.jobqueue.Consumer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/**
 * A non-transactional batch consumer, and a consumer of one payload that the configuration gives a jobs-per-call
 * (broken-batch/microprofile-config.properties).
 */
@ApplicationScoped
public class BadBatchOptionsConsumers {

    @Consumer(queue = "batch-not-transactional", jobsPerCall = 10, transactional = false)
    public void notTransactional(List<String> payloads) {
    }

    @Consumer(queue = "batch-configured-single")
    public void single(String payload) {
    }
}
