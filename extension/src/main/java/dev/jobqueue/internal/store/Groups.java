package dev.jobqueue.internal.store;

import static dev.jobqueue.internal.store.Database.placeholders;

import dev.jobqueue.internal.time.JobQueueClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Job groups: their progress, and whether a finishing job was the group's last. The group's row is locked
 * before its unfinished jobs are looked for, so when the last two jobs finish at once, the second to commit
 * sees the first finished, and exactly one of them reports the group finished. This relies on READ COMMITTED.
 *
 * <p>A group's row lives as long as the group has jobs: it is deleted with the group's last job, by retention,
 * an operator's purge, or a finish that deletes the job, and a slow sweep finds any left behind. A put can
 * race with that delete and leave a job whose group has no row; the first finisher to find the row missing
 * creates it again, and the others queue on it as before.
 */
@ApplicationScoped
public class Groups {

    /** A group row this young is left alone by the sweep: a put may be adding its first job. */
    static final Duration SWEEP_MIN_AGE = Duration.ofMinutes(5);

    @Inject
    TransactionalJdbc jdbc;

    @Inject
    EnqueueStore enqueueStore;

    @Inject
    Chunks chunks;

    @Inject
    @JobQueueClock
    Clock clock;

    /**
     * In the transaction that finished a job of {@code group}: the group's counts if it has no unfinished job
     * left, else empty. A finished group that has no job left at all, because its jobs are deleted as they
     * finish, loses its row here.
     */
    @Transactional(TxType.MANDATORY)
    public Optional<Map<JobState, Long>> finishedCounts(String group) {
        if (!lock(group)) {
            enqueueStore.ensureGroup(group, clock.instant());
            lock(group);
        }
        boolean unfinished = !jdbc.query("""
                SELECT id FROM jobqueue_job WHERE group_name = ? AND state IN ('PENDING', 'RUNNING', 'WAITING')
                LIMIT 1""",
                (row, db) -> row.getString(1), group).isEmpty();
        if (unfinished) {
            return Optional.empty();
        }
        Map<JobState, Long> counts = counts(group);
        if (counts.get(JobState.PENDING) + counts.get(JobState.RUNNING) + counts.get(JobState.WAITING) > 0) {
            // A put, which does not wait for the group's lock, committed a job between the two reads: the
            // group finishes with that job, and the event never reports unfinished jobs.
            return Optional.empty();
        }
        if (counts.values().stream().allMatch(count -> count == 0)) {
            deleteEmpty(List.of(group));
        }
        return Optional.of(counts);
    }

    /** Locks the group's row; false if it has none. */
    private boolean lock(String group) {
        return !jdbc.query("SELECT name FROM jobqueue_group WHERE name = ? FOR UPDATE", (row, db) -> row.getString(1),
                group).isEmpty();
    }

    /**
     * What finishing jobs of {@code jobGroups} did beyond the jobs, in their transaction: the groups they and
     * {@code failedDependents} finished, with the queues they released and the jobs that failed with them.
     */
    @Transactional(TxType.MANDATORY)
    public Finish afterFinish(Collection<String> jobGroups, Set<String> releasedQueues,
            List<FailedDependent> failedDependents) {
        Set<String> touched = new TreeSet<>(jobGroups);
        failedDependents.stream().map(FailedDependent::group).filter(Objects::nonNull).forEach(touched::add);
        if (releasedQueues.isEmpty() && failedDependents.isEmpty() && touched.isEmpty()) {
            return Finish.NOTHING;
        }
        Map<String, Map<JobState, Long>> finished = new TreeMap<>();
        touched.forEach(name -> finishedCounts(name).ifPresent(counts -> finished.put(name, counts)));
        return new Finish(releasedQueues, failedDependents, finished);
    }

    /** How many of the group's jobs are in each state; every state is present. */
    @Transactional(TxType.REQUIRED)
    public Map<JobState, Long> counts(String group) {
        Map<JobState, Long> counts = new EnumMap<>(JobState.class);
        for (JobState state : JobState.values()) {
            counts.put(state, 0L);
        }
        jdbc.query("SELECT state, COUNT(*) FROM jobqueue_job WHERE group_name = ? GROUP BY state",
                (row, db) -> counts.put(JobState.valueOf(row.getString(1)), row.getLong(2)), group);
        return counts;
    }

    /** Deletes the rows of those of {@code names} that have no job left, in the caller's transaction. */
    @Transactional(TxType.MANDATORY)
    public int deleteEmpty(Collection<String> names) {
        if (names.isEmpty()) {
            return 0;
        }
        return jdbc.update("DELETE FROM jobqueue_group WHERE name IN (" + placeholders(names.size()) + ")"
                + " AND NOT EXISTS (SELECT 1 FROM jobqueue_job j WHERE j.group_name = jobqueue_group.name)", names);
    }

    /**
     * Looks at the next {@code jobqueue.bulk-chunk-size} group rows after {@code after}, in name order, and deletes those
     * older than {@link #SWEEP_MIN_AGE} that have no job left: groups emptied one job at a time, by an operator.
     *
     * @param after the last name the previous sweep looked at, or null to start from the first
     * @return the last name looked at, or null once the sweep has reached the end
     */
    @Transactional(TxType.REQUIRES_NEW)
    public String sweep(String after) {
        List<String> names = jdbc.query("SELECT name FROM jobqueue_group WHERE name > ? AND created_at < ?"
                + " ORDER BY name LIMIT " + chunks.size(), (row, db) -> row.getString(1),
                after == null ? "" : after, clock.instant().minus(SWEEP_MIN_AGE));
        deleteEmpty(names);
        return names.size() < chunks.size() ? null : names.get(names.size() - 1);
    }
}
