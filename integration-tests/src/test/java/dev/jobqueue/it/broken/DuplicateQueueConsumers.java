package dev.jobqueue.it.broken;

import dev.jobqueue.Consumer;
import jakarta.enterprise.context.ApplicationScoped;

/** Two consumers for one queue. */
@ApplicationScoped
public class DuplicateQueueConsumers {

    @Consumer(queue = "twice")
    public void first(String payload) {
    }

    @Consumer(queue = "twice")
    public void second(String payload) {
    }
}
