package dev.jobqueue.internal.store;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Job groups: their progress, and whether a finishing job was the group's last. The group's row is locked
 * before its unfinished jobs are looked for, so when the last two jobs finish at once, the second to commit
 * sees the first finished, and exactly one of them reports the group finished. This relies on READ COMMITTED.
 */
@ApplicationScoped
public class Groups {

    @PersistenceContext(unitName = "jobqueue")
    EntityManager em;

    /**
     * In the transaction that finished a job of {@code group}: the group's counts if it has no unfinished job
     * left, else empty.
     */
    @Transactional(TxType.MANDATORY)
    public Optional<Map<JobState, Long>> finishedCounts(String group) {
        em.createNativeQuery("SELECT name FROM jobqueue_group WHERE name = :group FOR UPDATE", String.class)
                .setParameter("group", group)
                .getResultList();
        boolean unfinished = !em.createNativeQuery("""
                SELECT id FROM jobqueue_job WHERE group_name = :group AND state IN ('PENDING', 'RUNNING', 'WAITING')""",
                String.class)
                .setParameter("group", group)
                .setMaxResults(1)
                .getResultList().isEmpty();
        return unfinished ? Optional.empty() : Optional.of(counts(group));
    }

    /** How many of the group's jobs are in each state; every state is present. */
    @Transactional(TxType.REQUIRED)
    public Map<JobState, Long> counts(String group) {
        Map<JobState, Long> counts = new EnumMap<>(JobState.class);
        for (JobState state : JobState.values()) {
            counts.put(state, 0L);
        }
        List<Object[]> rows = em.createQuery("""
                SELECT j.state, COUNT(j) FROM JobqueueJob j WHERE j.groupName = :group GROUP BY j.state""",
                Object[].class)
                .setParameter("group", group)
                .getResultList();
        rows.forEach(row -> counts.put((JobState) row[0], (Long) row[1]));
        return counts;
    }
}
