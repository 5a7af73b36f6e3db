package dev.jobqueue.it.bulk;

import dev.jobqueue.Consumer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Consumers for the bulk-put tests; they record what started in {@link BulkRuns}. */
@ApplicationScoped
public class BulkConsumers {

    @Inject
    BulkRuns runs;

    /** A payload starting with "hold-" runs until the test lets it go. */
    @Consumer(queue = "bulk", concurrency = 4)
    public void run(String payload) throws InterruptedException {
        runs.started(payload);
        if (payload.startsWith("hold-")) {
            runs.awaitRelease();
        }
    }
}
