package dev.jobqueue.it.kit;

import dev.jobqueue.Consumer;
import dev.jobqueue.JobContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The consumers a user would test: one that fails its first attempt at each order, and one that succeeds. */
public class KitConsumers {

    /** An order, the payload. */
    public record Order(String number, int amount) {
    }

    /** Fails the first attempt at each order, as a flaky remote call would. */
    @ApplicationScoped
    public static class Invoicing {
        private final Set<String> tried = ConcurrentHashMap.newKeySet();

        @Consumer(queue = "kit-invoicing")
        public void invoice(Order order, JobContext context) {
            if (tried.add(order.number())) {
                throw new IllegalStateException("the invoicing service timed out for " + order.number());
            }
        }
    }

    /** Always succeeds. */
    @ApplicationScoped
    public static class Shipping {
        @Consumer(queue = "kit-shipping")
        public void ship(Order order) {
            // shipped
        }
    }
}
