package dev.jobqueue.it.tracing;

import dev.jobqueue.Consumer;
import jakarta.enterprise.context.ApplicationScoped;

/** The consumer of the tracing test's node whose telemetry is off. */
@ApplicationScoped
public class UntracedConsumer {

    @Consumer(queue = "untraced")
    public void run(String work) {
        // nothing to trace
    }
}
