package dev.jobqueue.it.app;

import dev.jobqueue.Consumer;
import dev.jobqueue.JobContext;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

/** A session-bean consumer that fails every job's first attempt, as a flaky external system would. */
@Stateless
public class FlakyConsumer {

    @Inject
    Recorder recorder;

    @Consumer(queue = "flaky")
    public void call(String text, JobContext context) {
        recorder.record(text, context);
        if (context.attempt() == 1) {
            throw new IllegalStateException("the external system is down");
        }
    }
}
