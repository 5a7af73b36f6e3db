package dev.jobqueue.it.broken;

import dev.jobqueue.Consumer;
import dev.jobqueue.Occurrence;
import dev.jobqueue.Recurring;
import jakarta.enterprise.context.ApplicationScoped;

/** Schedules whose cron expression and zone cannot be read. */
@ApplicationScoped
public class BadCronConsumer {

    @Recurring(name = "nightly-cleanup", cron = "61 2 * * *")
    @Consumer(queue = "cleanup")
    public void cleanup(Occurrence occurrence) {
    }

    @Recurring(cron = "0 2 * * *", zone = "Europe/Atlantis")
    @Consumer(queue = "lost-zone")
    public void lostZone(Occurrence occurrence) {
    }
}
