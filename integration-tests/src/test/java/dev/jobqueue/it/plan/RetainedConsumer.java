package dev.jobqueue.it.plan;

import dev.jobqueue.Consumer;
import jakarta.enterprise.context.ApplicationScoped;

/** Consumes the queue whose DONE jobs retention deletes (retention 1d, the default). */
@ApplicationScoped
public class RetainedConsumer {

    @Consumer(queue = "bulk-retained")
    public void run(String payload) {
        // nothing to do
    }
}
