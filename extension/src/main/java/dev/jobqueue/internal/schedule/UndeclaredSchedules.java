package dev.jobqueue.internal.schedule;

import dev.jobqueue.internal.Messages;
import dev.jobqueue.internal.store.ScheduleRow;
import dev.jobqueue.internal.store.ScheduleStore;
import dev.jobqueue.internal.store.Transactions;
import dev.jobqueue.internal.time.LeaseClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.logging.Logger;

/**
 * Turns off the declared schedules of this application's queues that no running node has declared for the grace,
 * keeping their rows: {@code declarationGone} in the admin listing, and a JQ061 warning. A node judges only once
 * it has itself watched for a whole grace, so neither its own start nor a database outage, during which no node
 * could declare anything, turns a schedule off.
 */
@ApplicationScoped
public class UndeclaredSchedules {

    private static final Logger LOG = Logger.getLogger(UndeclaredSchedules.class.getName());

    @Inject
    ScheduleStore store;

    @Inject
    Transactions transactions;

    /** Schedules fire on the database's clock, as leases are measured: one clock for every node. */
    @Inject
    LeaseClock clock;

    /**
     * @param queues        the queues this application consumes
     * @param declaredHere  the schedules this node declares, which it never turns off
     * @param watchingSince since when this node's rounds have reached the database without a break
     * @throws Exception if the database fails
     */
    void turnOff(Set<String> queues, Set<String> declaredHere, Instant watchingSince, Duration grace)
            throws Exception {
        Instant now = clock.now();
        Instant seenSince = now.minus(grace);
        if (queues.isEmpty() || watchingSince.isAfter(seenSince)) {
            return;
        }
        for (ScheduleRow row : store.list()) {
            if (row.declared() && row.enabled() && queues.contains(row.queue()) && !declaredHere.contains(row.name())
                    && transactions.inNewTransaction(() -> store.turnOffUndeclared(row.name(), seenSince, now))) {
                LOG.warning(Messages.undeclaredScheduleTurnedOff(row.name(), row.queue(), grace));
            }
        }
    }
}
