package dev.jobqueue.it.kit;

import dev.jobqueue.Consumer;
import dev.jobqueue.JobContext;
import dev.jobqueue.Occurrence;
import dev.jobqueue.QueueBackoffException;
import dev.jobqueue.Recurring;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

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

    /** Answers "429, retry in 5 minutes" the first time it sees each order, as a partner that limits its callers. */
    @ApplicationScoped
    public static class Payments {
        private final Set<String> tried = ConcurrentHashMap.newKeySet();

        @Consumer(queue = "kit-payments")
        public void pay(Order order) {
            if (tried.add(order.number())) {
                throw new QueueBackoffException(Duration.ofMinutes(5), "429 from the payment service");
            }
        }
    }

    /** A nightly report, which a test fires with {@code JobAdmin.triggerSchedule} and then drains. */
    @ApplicationScoped
    public static class NightlyReport {
        private final List<String> reported = new CopyOnWriteArrayList<>();

        @Recurring(name = "kit-nightly", cron = "0 2 * * *")
        @Consumer(queue = "kit-nightly-report")
        public void report(Occurrence occurrence) {
            reported.add(occurrence.schedule());
        }

        public List<String> reported() {
            return reported;
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
