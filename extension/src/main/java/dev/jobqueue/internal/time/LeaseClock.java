package dev.jobqueue.internal.time;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * The clock leases are written and compared in: the database's, as this node estimates it. The lease keeper
 * reads the database's time every round ({@link #synchronize}); between readings the estimate advances with
 * the JVM's monotonic clock. So every node measures leases against one clock, and a step of a node's wall
 * clock (NTP, a resumed virtual machine, an operator) cannot make it take back another node's jobs, or write a
 * lease that others see as expired. Until the first reading it is the {@link JobQueueClock}.
 */
@ApplicationScoped
public class LeaseClock {

    /** A reading of the database's time, and the monotonic clock's value when it was taken. */
    private record Reading(Instant databaseTime, long nanoTime) {
    }

    @Inject
    @JobQueueClock
    Clock wallClock;

    private volatile Reading reading;

    /** The database's time now, as estimated from the last reading. */
    public Instant now() {
        Reading last = reading;
        return last == null ? wallClock.instant() : last.databaseTime().plusNanos(System.nanoTime() - last.nanoTime());
    }

    /**
     * Records a reading of the database's time.
     *
     * @param databaseTime what the database said
     * @param nanoTime     {@link System#nanoTime()} when it said so: the middle of the round trip
     * @return how far this node's wall clock is ahead of the database's (negative when behind)
     */
    public Duration synchronize(Instant databaseTime, long nanoTime) {
        reading = new Reading(databaseTime, nanoTime);
        return Duration.between(databaseTime.plusNanos(System.nanoTime() - nanoTime), wallClock.instant());
    }
}
