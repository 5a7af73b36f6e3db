package dev.jobqueue.it.app;

import dev.jobqueue.Consumer;
import dev.jobqueue.JobContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Consumes the confirmations queue and records what it received. */
@ApplicationScoped
public class ConfirmationConsumer {

    @Inject
    Recorder recorder;

    @Consumer(queue = "confirmations")
    public void send(Confirmation confirmation, JobContext context) {
        recorder.record(confirmation, context);
    }
}
