package dev.jobqueue.it.broken;

import dev.jobqueue.Consumer;
import jakarta.enterprise.context.ApplicationScoped;

/** A valid consumer deployed with bad configuration (see broken/microprofile-config.properties). */
@ApplicationScoped
public class BrokenConfigConsumer {

    @Consumer(queue = "broken-config")
    public void handle(String payload) {
    }
}
