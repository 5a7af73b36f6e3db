package dev.jobqueue.it.broken;

import dev.jobqueue.Consumer;
import jakarta.enterprise.context.ApplicationScoped;

/** A batch consumer (jobsPerCall is set) whose parameter is not a List of payloads. */
@ApplicationScoped
public class BadBatchSignatureConsumer {

    @Consumer(queue = "batch-not-a-list", jobsPerCall = 10)
    public void handle(String payload) {
    }
}
