package dev.jobqueue.it.recurring.changes;

import dev.jobqueue.Consumer;
import dev.jobqueue.Occurrence;
import dev.jobqueue.Recurring;
import jakarta.enterprise.context.ApplicationScoped;

/** The next version: the report moved to 04:00, and the cleanup is no longer scheduled. */
@ApplicationScoped
public class ReportsV2 {

    @Recurring(cron = "0 4 * * *", zone = "Europe/Berlin")
    @Consumer(queue = "versioned-report")
    public void report(Occurrence occurrence) {
    }

    @Consumer(queue = "versioned-cleanup")
    public void cleanup(Occurrence occurrence) {
    }
}
