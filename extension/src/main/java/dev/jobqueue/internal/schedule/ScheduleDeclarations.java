package dev.jobqueue.internal.schedule;

import dev.jobqueue.internal.cron.ScheduleDefinition;
import dev.jobqueue.internal.store.ScheduleRow;
import dev.jobqueue.internal.store.ScheduleStore;
import dev.jobqueue.internal.store.Transactions;
import dev.jobqueue.internal.time.LeaseClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * Brings the stored schedules in line with the {@code @Recurring} declarations at start-up: a new one is
 * created, a changed one updated (from now, if its times changed), and a declared one whose declaration is gone
 * from a queue this application consumes is turned off, not left firing.
 */
@ApplicationScoped
public class ScheduleDeclarations {

    private static final Logger LOG = Logger.getLogger(ScheduleDeclarations.class.getName());
    /** Nodes starting together may both insert a new schedule; the one that loses tries again and updates. */
    private static final int ATTEMPTS = 3;

    @Inject
    ScheduleStore store;

    @Inject
    Transactions transactions;

    /** Schedules fire on the database's clock, as leases are measured: one clock for every node. */
    @Inject
    LeaseClock clock;

    /**
     * @param declared       the application's declarations, with configuration applied
     * @param consumedQueues the queues this application consumes, whose undeclared schedules are turned off
     */
    public void apply(Collection<ScheduleDefinition> declared, Set<String> consumedQueues) {
        for (ScheduleDefinition definition : declared) {
            for (int attempt = 1; ; attempt++) {
                try {
                    transactions.inNewTransaction(() -> save(definition));
                    break;
                } catch (Exception e) {
                    if (attempt == ATTEMPTS) {
                        throw new IllegalStateException("jobqueue: cannot store schedule " + definition.name() + ": "
                                + e, e);
                    }
                }
            }
        }
        Set<String> names = declared.stream().map(ScheduleDefinition::name).collect(Collectors.toSet());
        for (ScheduleRow row : store.list()) {
            if (row.declared() && row.enabled() && consumedQueues.contains(row.queue()) && !names.contains(row.name())) {
                store.disable(row.name(), clock.now());
                LOG.warning("jobqueue: schedule " + row.name() + " of queue " + row.queue() + " is no longer declared"
                        + " with @Recurring, and is turned off; delete it with DELETE /jobqueue/admin/schedules/"
                        + row.name() + " or JobSchedules.delete");
            }
        }
    }

    /** Creates or updates one schedule, in the caller's transaction; returns whether anything changed. */
    public boolean save(ScheduleDefinition definition) {
        Instant now = clock.now();
        Optional<ScheduleRow> stored = store.lock(definition.name());
        if (stored.isEmpty()) {
            store.insert(definition.row(definition.cron().nextAfter(now).toInstant(), false), now);
            return true;
        }
        ScheduleRow current = stored.get();
        ScheduleRow wanted = definition.row(current.nextFireAt(), current.paused());
        Instant nextFromNow = definition.cron().nextAfter(now).toInstant();
        // A next fire time beyond the first occurrence from now (written on a clock that was ahead) would skip
        // the occurrences in between.
        boolean tooLate = current.nextFireAt().isAfter(nextFromNow);
        if (wanted.sameDefinition(current) && !tooLate) {
            return false;
        }
        boolean restart = tooLate || !wanted.sameTimes(current) || (wanted.enabled() && !current.enabled());
        if (tooLate && wanted.sameTimes(current)) {
            LOG.info("jobqueue: schedule " + definition.name() + " was next due at " + current.nextFireAt()
                    + ", after its first time from now; it fires next at " + nextFromNow);
        }
        store.update(restart ? wanted.withNextFireAt(nextFromNow) : wanted, now);
        return true;
    }
}
