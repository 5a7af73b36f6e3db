package dev.jobqueue.it.broken;

import dev.jobqueue.Consumer;
import jakarta.enterprise.context.ApplicationScoped;

/** A consumer whose second parameter is not a JobContext. */
@ApplicationScoped
public class WrongSignatureConsumer {

    @Consumer(queue = "broken")
    public void handle(String payload, int notAContext) {
    }
}
