package dev.jobqueue.it.broken;

import dev.jobqueue.Consumer;
import jakarta.enterprise.context.ApplicationScoped;

/** A consumer whose queue name breaks the naming rule. */
@ApplicationScoped
public class BadQueueNameConsumer {

    @Consumer(queue = "Emails!")
    public void handle(String payload) {
    }
}
