package dev.jobqueue.it.postgresql;

import dev.jobqueue.Consumer;
import jakarta.enterprise.context.ApplicationScoped;

/** Consumes the cross-node queue in the second application; the test reads from the job's row when it started. */
@ApplicationScoped
public class CrossNodeConsumer {

    @Consumer(queue = "cross-node")
    public void run(String payload) {
        // returning marks the job DONE
    }
}
