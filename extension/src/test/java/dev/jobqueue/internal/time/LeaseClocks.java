package dev.jobqueue.internal.time;

import java.time.Clock;

/** Lease clocks for tests that run the engine without a server or a database. */
public final class LeaseClocks {

    private LeaseClocks() {
    }

    /** A lease clock that has never read the database's time, and so follows {@code wallClock}. */
    public static LeaseClock following(Clock wallClock) {
        LeaseClock leaseClock = new LeaseClock();
        leaseClock.wallClock = wallClock;
        return leaseClock;
    }
}
