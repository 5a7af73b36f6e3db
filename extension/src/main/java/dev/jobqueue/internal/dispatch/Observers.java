package dev.jobqueue.internal.dispatch;

import dev.jobqueue.internal.SafeText;
import jakarta.enterprise.event.Event;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Fires jobqueue's CDI events so that an observer that throws is logged and never breaks the queue. */
public final class Observers {

    private Observers() {
    }

    public static <T> void notify(Event<T> event, T payload, Logger log) {
        try {
            event.fire(payload);
        } catch (RuntimeException e) {
            log.log(Level.WARNING, "jobqueue: an observer of " + payload.getClass().getSimpleName() + " threw; the"
                    + " queue carries on: " + SafeText.of(String.valueOf(payload)), e);
        }
    }
}
