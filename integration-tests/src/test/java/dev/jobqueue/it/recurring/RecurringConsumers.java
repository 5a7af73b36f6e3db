package dev.jobqueue.it.recurring;

import dev.jobqueue.Consumer;
import dev.jobqueue.Occurrence;
import dev.jobqueue.OverlapPolicy;
import dev.jobqueue.Recurring;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Schedules declared on consumers, and a consumer for schedules made in code. */
@ApplicationScoped
public class RecurringConsumers {

    @Inject
    Occurrences occurrences;

    /** Overlap allowed: a slow first run, while the server warms up, must not skip the next occurrence. */
    @Recurring(cron = "* * * * * *", zone = "Europe/Berlin", overlap = OverlapPolicy.ALLOW)
    @Consumer(queue = "every-second")
    public void everySecond(Occurrence occurrence) {
        occurrences.add(occurrence);
    }

    @Recurring(name = "overridden", cron = "0 0 1 1 *")
    @Consumer(queue = "yearly")
    public void yearly(Occurrence occurrence) {
        occurrences.add(occurrence);
    }

    /** Takes longer than the second between its schedule's occurrences. */
    @Consumer(queue = "slow-report", concurrency = 4)
    public void slowReport(Occurrence occurrence) {
        occurrences.running(() -> {
            try {
                Thread.sleep(2_500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            occurrences.add(occurrence);
        });
    }

    @Consumer(queue = "tenant-report")
    public void tenantReport(TenantReport report) {
        occurrences.add(report);
    }

    /** The payload of a schedule made in code. */
    public record TenantReport(int tenant) {
    }
}
