package dev.jobqueue.it.tracing;

import dev.jobqueue.Consumer;
import dev.jobqueue.JobContext;
import jakarta.enterprise.context.ApplicationScoped;

/** The consumers of the tracing test's node that runs jobs. */
@ApplicationScoped
public class TracedConsumers {

    @Consumer(queue = "traced")
    public void run(String work) {
        // the span is the test's subject
    }

    /** Fails its first attempt, so that the second is a retry. */
    @Consumer(queue = "traced-retry")
    public void failOnce(String work, JobContext job) {
        if (job.attempt() == 1) {
            throw new IllegalStateException("the partner is down");
        }
    }

    @Consumer(queue = "traced-link", traceParent = "link")
    public void linked(String work) {
        // every attempt starts a trace of its own, linked to the put
    }
}
