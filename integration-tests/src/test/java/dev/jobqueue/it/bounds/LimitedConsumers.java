package dev.jobqueue.it.bounds;

import dev.jobqueue.Consumer;
import jakarta.enterprise.context.ApplicationScoped;

/** Consumers whose queues have payload limits set in each of the places an option can be set. */
public final class LimitedConsumers {

    private LimitedConsumers() {
    }

    /** Limited on the annotation. */
    @ApplicationScoped
    public static class Annotated {
        @Consumer(queue = "limit-annotated", maxPayloadSize = "2KiB")
        public void run(String payload) {
            // nothing to do
        }
    }

    /** Limited by a per-queue key in microprofile-config.properties. */
    @ApplicationScoped
    public static class Configured {
        @Consumer(queue = "limit-configured")
        public void run(String payload) {
            // nothing to do
        }
    }

    /** No limit set: the default, 1 MiB. */
    @ApplicationScoped
    public static class Defaulted {
        @Consumer(queue = "limit-default")
        public void run(String payload) {
            // nothing to do
        }
    }
}
