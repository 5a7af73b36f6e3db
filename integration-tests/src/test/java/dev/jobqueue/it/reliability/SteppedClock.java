package dev.jobqueue.it.reliability;

import dev.jobqueue.internal.time.JobQueueClock;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import jakarta.enterprise.inject.Produces;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** jobqueue's clock in this application: the system clock, which a test can step, as NTP or an operator would. */
@Alternative
@Priority(1000)
@ApplicationScoped
public class SteppedClock {

    private static volatile Duration step = Duration.ZERO;

    public void step(Duration by) {
        step = step.plus(by);
    }

    public void reset() {
        step = Duration.ZERO;
    }

    @Produces
    @JobQueueClock
    Clock clock() {
        return new Clock() {
            @Override
            public ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return Instant.now().plus(step);
            }
        };
    }
}
