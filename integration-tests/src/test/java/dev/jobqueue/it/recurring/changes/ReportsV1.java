package dev.jobqueue.it.recurring.changes;

import dev.jobqueue.Consumer;
import dev.jobqueue.Occurrence;
import dev.jobqueue.Recurring;
import jakarta.enterprise.context.ApplicationScoped;

/** The first version of an application: a report at 03:00 and a cleanup at 05:00. */
@ApplicationScoped
public class ReportsV1 {

    @Recurring(cron = "0 3 * * *", zone = "Europe/Berlin")
    @Consumer(queue = "versioned-report")
    public void report(Occurrence occurrence) {
    }

    @Recurring(cron = "0 5 * * *")
    @Consumer(queue = "versioned-cleanup")
    public void cleanup(Occurrence occurrence) {
    }
}
