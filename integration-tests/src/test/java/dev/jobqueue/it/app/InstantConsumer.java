package dev.jobqueue.it.app;

import dev.jobqueue.Consumer;
import dev.jobqueue.JobContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Consumes a queue that is polled only once an hour. */
@ApplicationScoped
public class InstantConsumer {

    @Inject
    Recorder recorder;

    @Consumer(queue = "instant")
    public void handle(String text, JobContext context) {
        recorder.record(text, context);
    }
}
