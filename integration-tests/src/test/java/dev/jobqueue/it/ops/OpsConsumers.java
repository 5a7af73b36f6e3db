package dev.jobqueue.it.ops;

import dev.jobqueue.Consumer;
import dev.jobqueue.JobContext;
import dev.jobqueue.JobFailed;
import dev.jobqueue.JobId;
import dev.jobqueue.JobRetried;
import dev.jobqueue.LeaseRescued;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Consumers and event observers for the observability and admin tests. */
public final class OpsConsumers {

    private OpsConsumers() {
    }

    /** Succeeds. */
    @ApplicationScoped
    public static class OkConsumer {
        @Consumer(queue = "ops-ok")
        public void run(String payload) {
            // nothing to do
        }
    }

    /** Fails its first attempt, then succeeds. */
    @ApplicationScoped
    public static class FlakyOnceConsumer {
        @Consumer(queue = "ops-flaky")
        public void run(String payload, JobContext context) {
            if (context.attempt() == 1) {
                throw new IllegalStateException("first attempt fails: " + payload);
            }
        }
    }

    /** Always fails, and gives up after one attempt. */
    @ApplicationScoped
    public static class FailingConsumer {
        @Consumer(queue = "ops-failing", maxAttempts = 1)
        public void run(String payload) {
            throw new IllegalStateException("cannot do " + payload);
        }
    }

    /** Throws an exception its queue counts as success. */
    @ApplicationScoped
    public static class AlreadyDoneConsumer {
        @Consumer(queue = "ops-already-done", successOn = UnsupportedOperationException.class)
        public void run(String payload) {
            throw new UnsupportedOperationException("already done: " + payload);
        }
    }

    /** Records every lifecycle event. */
    @ApplicationScoped
    public static class Events {
        private final List<Object> seen = new CopyOnWriteArrayList<>();

        void retried(@Observes JobRetried event) {
            seen.add(event);
        }

        void failed(@Observes JobFailed event) {
            seen.add(event);
        }

        void rescued(@Observes LeaseRescued event) {
            seen.add(event);
        }

        public <T> List<T> of(Class<T> type, JobId id) {
            return seen.stream().filter(type::isInstance).map(type::cast)
                    .filter(event -> id.equals(idOf(event))).toList();
        }

        private static JobId idOf(Object event) {
            if (event instanceof JobRetried retried) {
                return retried.id();
            }
            if (event instanceof JobFailed failed) {
                return failed.id();
            }
            return ((LeaseRescued) event).id();
        }
    }
}
