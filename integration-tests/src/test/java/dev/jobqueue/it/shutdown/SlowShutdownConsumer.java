package dev.jobqueue.it.shutdown;

import dev.jobqueue.Consumer;
import dev.jobqueue.JobContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Works far longer than the shutdown grace period, so shutdown must interrupt and release it. */
@ApplicationScoped
public class SlowShutdownConsumer {

    @Inject
    Started started;

    @Consumer(queue = "shutdown")
    public void run(String payload, JobContext context) throws InterruptedException {
        started.add(context.id().toString());
        Thread.sleep(120_000);
    }
}
