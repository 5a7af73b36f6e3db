package dev.jobqueue.test;

import dev.jobqueue.internal.time.JobQueueClock;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import jakarta.enterprise.inject.Produces;
import jakarta.interceptor.Interceptor;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * jobqueue's clock in a test deployment that includes this jar: the system clock plus an offset the test
 * advances. Delays, backoff, retention and the stuck-job threshold read it, so a test steps over a retry's
 * backoff with {@code advance(...)} instead of sleeping. Leases are measured, and recurring schedules fire, on
 * the database's clock, and do not move with it: fire a schedule with {@code JobAdmin.triggerSchedule}. It
 * replaces the system clock for the whole application, as an enabled CDI alternative.
 */
@Alternative
@Priority(Interceptor.Priority.APPLICATION + 100)
@ApplicationScoped
public class TestClock {

    private volatile Duration offset = Duration.ZERO;

    /** Moves the clock forward by {@code step}. */
    public void advance(Duration step) {
        if (step.isNegative()) {
            throw new IllegalArgumentException("the clock only moves forward; step was " + step);
        }
        offset = offset.plus(step);
    }

    /** Moves the clock forward to {@code time}, if it is not there yet: {@code advanceTo(retried.nextRunAt())}. */
    public void advanceTo(Instant time) {
        Duration ahead = Duration.between(now(), time);
        if (!ahead.isNegative()) {
            advance(ahead);
        }
    }

    /** Puts the clock back on the system time. */
    public void reset() {
        offset = Duration.ZERO;
    }

    /** The time jobqueue sees now. */
    public Instant now() {
        return Instant.now().plus(offset);
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
                return now();
            }
        };
    }
}
