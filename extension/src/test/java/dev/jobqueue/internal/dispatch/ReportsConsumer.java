package dev.jobqueue.internal.dispatch;

import dev.jobqueue.internal.consumer.ConsumerMethod;
import java.lang.reflect.Method;

/** A consumer of the queue "reports" for tests of the engine; the tests play what it does. */
final class ReportsConsumer {

    /** Its payload type. */
    public record Report(String name) {
    }

    void handle(Report report) {
        // the tests play the consumer
    }

    void handleAll(java.util.List<Report> reports) {
        // the tests play the consumer
    }

    /** The same queue's consumer as a batch consumer, with jobsPerCall set. */
    static ConsumerMethod batchMethod() {
        try {
            Method method = ReportsConsumer.class.getDeclaredMethod("handleAll", java.util.List.class);
            return new ConsumerMethod("reports", null, null, method, ReportsConsumer.class, method, Report.class,
                    false, true);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    /** The consumer as the extension would have found it; it has no CDI bean, so a test must play its calls. */
    static ConsumerMethod method() {
        try {
            Method method = ReportsConsumer.class.getDeclaredMethod("handle", Report.class);
            return new ConsumerMethod("reports", null, null, method, ReportsConsumer.class, method, Report.class,
                    false, false);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }
}
