package dev.jobqueue.internal.schedule;

import dev.jobqueue.internal.JndiNames;
import dev.jobqueue.internal.Messages;
import dev.jobqueue.internal.cron.ScheduleDefinition;
import dev.jobqueue.internal.store.DatabaseReachability;
import dev.jobqueue.internal.store.ScheduleDeclarationStore;
import dev.jobqueue.internal.store.ScheduleRow;
import dev.jobqueue.internal.store.ScheduleStore;
import dev.jobqueue.internal.store.StoredDeclaration;
import dev.jobqueue.internal.store.Transactions;
import dev.jobqueue.internal.task.OutageLog;
import dev.jobqueue.internal.task.PeriodicTask;
import dev.jobqueue.internal.time.LeaseClock;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * Brings the stored schedules in line with the {@code @Recurring} declarations of the running nodes. A node records
 * its declarations at start-up and again every quarter of the grace ({@code jobqueue.undeclared-schedule-grace}),
 * and writes each one that is {@linkplain DeclarationInForce in force}: a new schedule is created at start-up, a
 * changed one updated (from now, if its times changed). So a node of an older version, restarting in a rolling
 * upgrade, leaves a newer version's schedules as they are, and two applications that consume one queue leave each
 * other's alone. What no running node declares any more is turned off by {@link UndeclaredSchedules}.
 */
@ApplicationScoped
public class ScheduleDeclarations {

    private static final Logger LOG = Logger.getLogger(ScheduleDeclarations.class.getName());
    /** Nodes starting together may both insert a new schedule; the one that loses tries again and updates. */
    private static final int ATTEMPTS = 3;

    @Resource(lookup = JndiNames.SCHEDULER)
    ScheduledExecutorService scheduler;

    @Inject
    ScheduleStore store;

    @Inject
    ScheduleDeclarationStore declarations;

    @Inject
    UndeclaredSchedules undeclared;

    @Inject
    Transactions transactions;

    @Inject
    DatabaseReachability database;

    /** Schedules fire on the database's clock, as leases are measured: one clock for every node. */
    @Inject
    LeaseClock clock;

    private final OutageLog outage = new OutageLog(LOG, "the round of schedule declarations",
            "tries again at its next round");
    private final PeriodicTask task = new PeriodicTask();
    private volatile List<ScheduleDefinition> declared = List.of();
    private volatile Set<String> queues = Set.of();
    private volatile Duration grace;
    /** Since when this node's rounds have reached the database without a break; null after a failed one. */
    private volatile Instant watchingSince;

    /**
     * Records this application's declarations and writes those in force, now and then every quarter of
     * {@code grace}, when it also turns off the schedules of {@code consumedQueues} that no running node declares.
     *
     * @param declared the application's declarations, with configuration applied
     * @param grace    how long no running node may declare a schedule before it is turned off
     * @throws IllegalStateException if a declaration cannot be stored
     */
    public void start(Collection<ScheduleDefinition> declared, Set<String> consumedQueues, Duration grace) {
        this.declared = List.copyOf(declared);
        this.queues = Set.copyOf(consumedQueues);
        this.grace = grace;
        watchingSince = clock.now();
        for (ScheduleDefinition definition : this.declared) {
            declare(definition, true);
        }
        Duration period = grace.dividedBy(4);
        task.start(scheduler, () -> outage.attempt(database, this::round), period, period);
    }

    public void stop() {
        task.stop();
    }

    /** One round: declares again, and turns off what no running node has declared for the grace. */
    void round() {
        if (watchingSince == null) {
            watchingSince = clock.now();
        }
        try {
            for (ScheduleDefinition definition : declared) {
                declare(definition, false);
            }
            undeclared.turnOff(queues, declared.stream().map(ScheduleDefinition::name).collect(Collectors.toSet()),
                    watchingSince, grace);
        } catch (Exception e) {
            watchingSince = null;
            throw e instanceof RuntimeException runtime ? runtime : new IllegalStateException(e);
        }
    }

    private void declare(ScheduleDefinition definition, boolean starting) {
        for (int attempt = 1; ; attempt++) {
            try {
                transactions.inNewTransaction(() -> declareLocked(definition, starting));
                return;
            } catch (Exception e) {
                if (attempt == ATTEMPTS) {
                    throw new IllegalStateException("jobqueue: cannot store schedule " + definition.name() + ": "
                            + e, e);
                }
            }
        }
    }

    /**
     * Records the declaration and writes it if it is in force, holding the schedule's row, so that the nodes
     * declaring one schedule take turns. Only a start creates a missing schedule: one an operator deleted comes
     * back at the next start-up.
     */
    private boolean declareLocked(ScheduleDefinition definition, boolean starting) {
        Instant now = clock.now();
        Optional<ScheduleRow> stored = store.lock(definition.name());
        String fingerprint = definition.fingerprint();
        declarations.declare(definition.name(), fingerprint, now);
        Optional<StoredDeclaration> inForce = DeclarationInForce.among(declarations.of(definition.name()),
                now.minus(grace));
        if (inForce.isPresent() && !inForce.get().fingerprint().equals(fingerprint)) {
            if (starting) {
                LOG.info(Messages.newerDeclarationInForce(definition.name(), inForce.get().declaredAt(), grace));
            }
            return false;
        }
        return (starting || stored.isPresent()) && write(definition, stored, now);
    }

    /** Creates or updates a schedule made in code, in the caller's transaction; returns whether anything changed. */
    public boolean save(ScheduleDefinition definition) {
        return write(definition, store.lock(definition.name()), clock.now());
    }

    private boolean write(ScheduleDefinition definition, Optional<ScheduleRow> stored, Instant now) {
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
