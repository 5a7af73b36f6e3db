package dev.jobqueue.internal.dispatch;

import java.time.Duration;

/** How often a node renews the leases of the jobs it runs. */
public final class LeaseRenewal {

    /** The longest time between two renewal rounds, whatever the lease. */
    public static final Duration MAX_PERIOD = Duration.ofSeconds(5);

    private LeaseRenewal() {
    }

    /** A third of {@code lease}, between 100 ms and {@link #MAX_PERIOD}: a lease outlives two missed rounds. */
    public static Duration period(Duration lease) {
        Duration third = lease.dividedBy(3);
        return Duration.ofMillis(Math.max(100, Math.min(third.toMillis(), MAX_PERIOD.toMillis())));
    }
}
