package dev.jobqueue.internal.time;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.time.Clock;

/** Produces the UTC system clock as the {@link JobQueueClock}. */
@ApplicationScoped
public class SystemClockProducer {

    @Produces
    @JobQueueClock
    Clock clock() {
        return Clock.systemUTC();
    }
}
