package dev.jobqueue.it.shutdown;

import dev.jobqueue.Consumer;
import dev.jobqueue.JobContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** The next version of the application: finishes the job at once. */
@ApplicationScoped
public class FastShutdownConsumer {

    @Inject
    Started started;

    @Consumer(queue = "shutdown")
    public void run(String payload, JobContext context) {
        started.add(context.id().toString());
    }
}
