package dev.jobqueue.bench.jms;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicLong;

/** How many messages the message-driven bean has handled since the last reset, as the jobqueue consumers count jobs. */
@ApplicationScoped
public class MessageCount {

    private final AtomicLong received = new AtomicLong();

    void add() {
        received.incrementAndGet();
    }

    long value() {
        return received.get();
    }

    void reset() {
        received.set(0);
    }
}
