package dev.jobqueue.internal.schedule;

import dev.jobqueue.JobId;
import dev.jobqueue.ScheduleInfo;
import dev.jobqueue.internal.store.ScheduleRow;
import dev.jobqueue.internal.store.ScheduleStore;
import dev.jobqueue.internal.time.LeaseClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.List;
import java.util.NoSuchElementException;

/** An operator's view of the schedules, and trigger-now, pause and resume, for the admin API. */
@ApplicationScoped
public class ScheduleControl {

    @Inject
    ScheduleStore store;

    @Inject
    OccurrenceJobs jobs;

    /** Schedules fire on the database's clock, as leases are measured: one clock for every node. */
    @Inject
    LeaseClock clock;

    public List<ScheduleInfo> list() {
        return store.list().stream().map(StoredSchedule::info).toList();
    }

    /** At most {@code size} schedules named after {@code after} (null for the first), by name. */
    public List<ScheduleInfo> page(String after, int size) {
        return store.page(after, size).stream().map(StoredSchedule::info).toList();
    }

    /**
     * Checks the schedule exists, outside a transaction: an unknown name in an operator's request is refused
     * without a transaction rolled back, which the server would report as an incident.
     *
     * @throws NoSuchElementException if there is no schedule of that name
     */
    public void requireExists(String name) {
        if (store.find(name).isEmpty()) {
            throw unknown(name);
        }
    }

    /**
     * Puts a job for the schedule now, outside its times; its next occurrence stays as it was.
     *
     * @throws NoSuchElementException if there is no schedule of that name
     */
    @Transactional
    public JobId trigger(String name) {
        ScheduleRow row = store.lock(name).orElseThrow(() -> unknown(name));
        Instant now = clock.now();
        JobId id = jobs.put(row, now.atZone(StoredSchedule.cron(row).zone()), OccurrenceJobs.triggeredKey(name, now));
        store.triggered(name, now, id.toString());
        return id;
    }

    /** Stops the schedule firing, on every node, until it is resumed. */
    @Transactional
    public void pause(String name) {
        if (!store.setPaused(name, true, null, clock.now())) {
            throw unknown(name);
        }
    }

    /** Lets the schedule fire again, from its first occurrence after now: the paused ones are not caught up. */
    @Transactional
    public void resume(String name) {
        ScheduleRow row = store.lock(name).orElseThrow(() -> unknown(name));
        Instant now = clock.now();
        store.setPaused(name, false, row.paused() ? StoredSchedule.cron(row).nextAfter(now).toInstant() : null, now);
    }

    private static NoSuchElementException unknown(String name) {
        return new NoSuchElementException("jobqueue: there is no schedule named '" + name + "'");
    }
}
