package dev.jobqueue.internal.schedule;

import dev.jobqueue.internal.cron.CronSchedule;
import dev.jobqueue.internal.cron.SchedulePolicy;
import dev.jobqueue.internal.cron.OccurrencePlan;
import dev.jobqueue.JobId;
import dev.jobqueue.OccurrencesSkipped;
import dev.jobqueue.OverlapPolicy;
import dev.jobqueue.internal.JndiNames;
import dev.jobqueue.internal.dispatch.Observers;
import dev.jobqueue.internal.metrics.JobMetrics;
import dev.jobqueue.internal.store.DatabaseReachability;
import dev.jobqueue.internal.store.ScheduleRow;
import dev.jobqueue.internal.store.ScheduleStore;
import dev.jobqueue.internal.store.Transactions;
import dev.jobqueue.internal.task.OutageLog;
import dev.jobqueue.internal.task.PeriodicTask;
import dev.jobqueue.internal.time.LeaseClock;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.logging.Logger;

/**
 * Fires the due schedules of this application's queues, every second, on every node. Each schedule is fired in
 * a transaction of its own that locks its row ({@code SKIP LOCKED}, so a node skips a schedule another node is
 * firing), puts a job per occurrence the policies let through, and moves the row past now; so each occurrence
 * gets one job, or none if it is skipped, whichever node fires it and whenever one dies.
 */
@ApplicationScoped
public class ScheduleRunner {

    private static final Logger LOG = Logger.getLogger(ScheduleRunner.class.getName());
    private static final Duration PERIOD = Duration.ofSeconds(1);
    private static final int SCHEDULES_PER_ROUND = 100;
    /** Every this many rounds, a minute, the series of deleted schedules are removed. */
    private static final int ROUNDS_PER_PRUNE = 60;
    private static final Set<String> UNFINISHED = Set.of("PENDING", "RUNNING", "WAITING");

    @Resource(lookup = JndiNames.SCHEDULER)
    ScheduledExecutorService scheduler;

    /** Schedules fire on the database's clock, as leases are measured: one clock for every node. */
    @Inject
    LeaseClock clock;

    @Inject
    ScheduleStore store;

    @Inject
    OccurrenceJobs jobs;

    @Inject
    Transactions transactions;

    @Inject
    DatabaseReachability database;

    @Inject
    JobMetrics metrics;

    @Inject
    DeletedScheduleMetrics deletedScheduleMetrics;

    @Inject
    Event<OccurrencesSkipped> skippedEvents;

    private final OutageLog outage = new OutageLog(LOG, "the schedule runner", "tries again every second");
    private final PeriodicTask task = new PeriodicTask();
    /** Schedules whose last round failed, so that a failing one logs once, not every second. */
    private final Set<String> failing = ConcurrentHashMap.newKeySet();
    private volatile Set<String> queues = Set.of();
    private int rounds;

    /** Fires the schedules of the queues this application consumes; other applications fire theirs. */
    public void start(Set<String> consumedQueues) {
        queues = Set.copyOf(consumedQueues);
        task.start(scheduler, () -> outage.attempt(database, this::fireDue), PERIOD, PERIOD);
    }

    public void stop() {
        task.stop();
    }

    /** Whether this application fires the schedules of {@code queue}: whether it consumes the queue. */
    public boolean fires(String queue) {
        return queues.contains(queue);
    }

    /** One round: fires each schedule of this application that is due now; once a minute, prunes metrics. */
    void fireDue() {
        for (String name : store.due(clock.now(), queues, SCHEDULES_PER_ROUND)) {
            fire(name);
        }
        if (++rounds % ROUNDS_PER_PRUNE == 0) {
            deletedScheduleMetrics.prune();
        }
    }

    private void fire(String name) {
        Optional<Round> round;
        try {
            round = transactions.inNewTransaction(() -> fireLocked(name));
        } catch (Exception e) {
            if (failing.add(name)) {
                LOG.warning("jobqueue: schedule " + name + " cannot fire, and tries again every second: " + e);
            }
            return;
        }
        if (failing.remove(name)) {
            LOG.info("jobqueue: schedule " + name + " fires again");
        }
        round.ifPresent(this::report);
    }

    private Optional<Round> fireLocked(String name) {
        Instant now = clock.now();
        Optional<ScheduleRow> locked = store.lockDue(name, now);
        if (locked.isEmpty()) {
            return Optional.empty();
        }
        ScheduleRow row = locked.get();
        CronSchedule cron;
        SchedulePolicy policy;
        try {
            cron = StoredSchedule.cron(row);
            policy = StoredSchedule.policy(row);
        } catch (IllegalArgumentException e) {
            LOG.warning("jobqueue: schedule " + name + " is turned off: its row cannot be read (" + e.getMessage()
                    + "); save it again, or delete it");
            store.disable(name, now);
            return Optional.empty();
        }
        boolean previousUnfinished = policy.overlap() == OverlapPolicy.SKIP && row.lastJobId() != null
                && store.jobState(row.lastJobId()).filter(UNFINISHED::contains).isPresent();
        OccurrencePlan plan = OccurrencePlan.at(now, cron, row.nextFireAt(), policy, previousUnfinished);
        JobId last = null;
        for (ZonedDateTime occurrence : plan.toPut()) {
            last = jobs.put(row, occurrence, OccurrenceJobs.key(name, occurrence));
        }
        Instant lastFire = plan.toPut().isEmpty() ? null : plan.toPut().get(plan.toPut().size() - 1).toInstant();
        if (!store.advance(name, row.nextFireAt(), plan.nextFire().toInstant(), lastFire,
                last == null ? null : last.toString(), now)) {
            throw new IllegalStateException("schedule " + name + " was moved on by another transaction");
        }
        return Optional.of(new Round(row, plan));
    }

    private void report(Round round) {
        String name = round.schedule().name();
        OccurrencePlan plan = round.plan();
        metrics.occurrences(name, JobMetrics.OccurrenceOutcome.PUT, plan.toPut().size());
        skipped(round.schedule(), OccurrencesSkipped.Reason.MISSED, plan.missed());
        skipped(round.schedule(), OccurrencesSkipped.Reason.OVERLAP, plan.overlapped());
    }

    private void skipped(ScheduleRow schedule, OccurrencesSkipped.Reason reason, List<ZonedDateTime> occurrences) {
        if (occurrences.isEmpty()) {
            return;
        }
        metrics.occurrences(schedule.name(), reason == OccurrencesSkipped.Reason.MISSED
                ? JobMetrics.OccurrenceOutcome.MISSED : JobMetrics.OccurrenceOutcome.OVERLAPPED, occurrences.size());
        OccurrencesSkipped event = new OccurrencesSkipped(schedule.name(), schedule.queue(), reason, occurrences.size(),
                occurrences.get(0), occurrences.get(occurrences.size() - 1));
        LOG.info("jobqueue: schedule " + schedule.name() + " skipped " + occurrences.size() + " occurrence(s) ("
                + reason.name().toLowerCase(java.util.Locale.ROOT) + "), " + event.first() + " to " + event.last());
        Observers.notify(skippedEvents, event, LOG);
    }

    /** What one schedule's round did, reported after its transaction committed. */
    private record Round(ScheduleRow schedule, OccurrencePlan plan) {
    }
}
