package dev.jobqueue.it.recurring;

import dev.jobqueue.Consumer;
import dev.jobqueue.Occurrence;
import dev.jobqueue.Recurring;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** A schedule every second, in an application whose clock the test moves. */
@ApplicationScoped
public class ClockTicks {

    @Inject
    Occurrences occurrences;

    @Recurring(cron = "* * * * * *")
    @Consumer(queue = "clock-ticks")
    public void tick(Occurrence occurrence) {
        occurrences.add(occurrence);
    }
}
