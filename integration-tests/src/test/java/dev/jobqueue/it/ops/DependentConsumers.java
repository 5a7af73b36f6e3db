package dev.jobqueue.it.ops;

import dev.jobqueue.Consumer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.ThreadLocalRandom;

/** The consumers of {@link DependentJobsIT}: parents that always fail, a little late, and children that succeed. */
public final class DependentConsumers {

    private DependentConsumers() {
    }

    /** Fails after 0 to 40 ms, and gives up after one attempt: its failure can meet an operator's retry. */
    @ApplicationScoped
    public static class FailingParent {
        @Consumer(queue = "dep-parent", maxAttempts = 1)
        public void run(String payload) throws InterruptedException {
            Thread.sleep(ThreadLocalRandom.current().nextInt(40));
            throw new IllegalStateException("parent fails: " + payload);
        }
    }

    /** Succeeds. */
    @ApplicationScoped
    public static class Child {
        @Consumer(queue = "dep-child")
        public void run(String payload) {
            // nothing to do: the test looks at the job's state
        }
    }
}
