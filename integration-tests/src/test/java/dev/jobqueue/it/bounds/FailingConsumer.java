package dev.jobqueue.it.bounds;

import dev.jobqueue.Consumer;
import dev.jobqueue.JobContext;
import jakarta.enterprise.context.ApplicationScoped;

/** Fails every attempt, naming it, until its attempts (40, in config) run out. */
@ApplicationScoped
public class FailingConsumer {

    @Consumer(queue = "bounds-failing")
    public void run(String payload, JobContext job) {
        throw new IllegalStateException("attempt " + job.attempt() + " fails");
    }
}
