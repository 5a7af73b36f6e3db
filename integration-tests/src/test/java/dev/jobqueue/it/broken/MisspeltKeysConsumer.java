package dev.jobqueue.it.broken;

import dev.jobqueue.Consumer;
import dev.jobqueue.Occurrence;
import dev.jobqueue.Recurring;
import jakarta.enterprise.context.ApplicationScoped;

/** A valid consumer and schedule, deployed with keys that would have no effect (see broken-keys/). */
@ApplicationScoped
public class MisspeltKeysConsumer {

    @Recurring(cron = "0 2 * * *")
    @Consumer(queue = "keys-report")
    public void report(Occurrence occurrence) {
    }
}
