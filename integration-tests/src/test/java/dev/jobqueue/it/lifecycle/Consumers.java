package dev.jobqueue.it.lifecycle;

import dev.jobqueue.Consumer;
import dev.jobqueue.JobContext;
import dev.jobqueue.it.app.Confirmation;
import dev.jobqueue.it.app.PlacedOrder;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.OptimisticLockException;
import jakarta.persistence.PersistenceContext;

/** The consumers of the lifecycle tests, one per behaviour. */
public final class Consumers {

    private Consumers() {
    }

    /** Always fails. Its annotation allows 2 attempts; config raises that to 3. */
    @ApplicationScoped
    public static class DoomedConsumer {
        @Inject
        Calls calls;

        @Consumer(queue = "doomed", maxAttempts = 2)
        public void run(String payload, JobContext context) {
            calls.record(context);
            throw new IllegalStateException("always broken: " + payload);
        }
    }

    /** Throws an exception its queue counts as success, as an idempotent write-once update would. */
    @ApplicationScoped
    public static class IdempotentConsumer {
        @Inject
        Calls calls;

        @Consumer(queue = "idempotent", successOn = OptimisticLockException.class)
        public void run(String payload, JobContext context) {
            calls.record(context);
            throw new OptimisticLockException("somebody already did this");
        }
    }

    /** Takes a typed payload, so a row that does not fit the type is poison. */
    @ApplicationScoped
    public static class TypedConsumer {
        @Inject
        Calls calls;

        @Consumer(queue = "typed")
        public void run(Confirmation payload, JobContext context) {
            calls.record(context);
        }
    }

    /** Takes only payloads that match {@link Confirmation} exactly. */
    @ApplicationScoped
    public static class StrictConsumer {
        @Inject
        Calls calls;

        @Consumer(queue = "typed-strict", strictPayload = true)
        public void run(Confirmation payload, JobContext context) {
            calls.record(context);
        }
    }

    /** Writes an order, then waits at the gate, so a test can take its lease away first. */
    @ApplicationScoped
    public static class FencedConsumer {
        @Inject
        Calls calls;

        @PersistenceContext(unitName = "app")
        EntityManager em;

        @Consumer(queue = "fenced")
        public void run(String orderId, JobContext context) throws InterruptedException {
            em.persist(new PlacedOrder(orderId, "fenced"));
            em.flush();
            calls.record(context);
            calls.passGate();
        }
    }

    /** Runs past its max-execute-time. Its retention annotation is overridden by the global key. */
    @ApplicationScoped
    public static class SlowConsumer {
        @Inject
        Calls calls;

        @Consumer(queue = "slow", maxExecuteTime = "300ms", retention = "5m")
        public void run(String payload, JobContext context) throws InterruptedException {
            calls.record(context);
            sleepInsideSlowConsumer();
        }

        private static void sleepInsideSlowConsumer() throws InterruptedException {
            Thread.sleep(1_500);
        }
    }

    /** Disabled on this node by config. */
    @ApplicationScoped
    public static class DisabledConsumer {
        @Inject
        Calls calls;

        @Consumer(queue = "disabled")
        public void run(String payload, JobContext context) {
            calls.record(context);
        }
    }
}
