package dev.jobqueue.it.recurring;

import dev.jobqueue.Consumer;
import dev.jobqueue.Occurrence;
import dev.jobqueue.Recurring;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Schedules declared on consumers, and a consumer for schedules made in code. */
@ApplicationScoped
public class RecurringConsumers {

    @Inject
    Occurrences occurrences;

    @Recurring(cron = "* * * * * *", zone = "Europe/Berlin")
    @Consumer(queue = "every-second")
    public void everySecond(Occurrence occurrence) {
        occurrences.add(occurrence);
    }

    @Recurring(name = "overridden", cron = "0 0 1 1 *")
    @Consumer(queue = "yearly")
    public void yearly(Occurrence occurrence) {
        occurrences.add(occurrence);
    }

    @Consumer(queue = "tenant-report")
    public void tenantReport(TenantReport report) {
        occurrences.add(report);
    }

    /** The payload of a schedule made in code. */
    public record TenantReport(int tenant) {
    }
}
