package dev.jobqueue.internal.store;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What the queues are doing, across every node, read from the jobs table: how many jobs each queue finished
 * minute by minute, how long its oldest due job has waited, and which nodes hold leases. Each query is per queue,
 * so that it reads a range of an index rather than the whole of it.
 */
@ApplicationScoped
public class QueueActivity {

    private static final Duration MINUTE = Duration.ofMinutes(1);
    /** The name shown for jobs claimed by a version of jobqueue that did not record the node. */
    static final String UNKNOWN_NODE = "(unknown)";

    @Inject
    TransactionalJdbc jdbc;

    /**
     * The queue's DONE and FAILED jobs that finished in each of the {@code minutes} minutes before {@code now},
     * oldest minute first; the last one is the minute up to {@code now}. Jobs that retention deleted are not
     * counted.
     */
    public long[] finishedPerMinute(String queue, Instant now, int minutes) {
        Instant start = now.minus(MINUTE.multipliedBy(minutes));
        StringBuilder sums = new StringBuilder();
        for (int i = 0; i < minutes; i++) {
            sums.append(i == 0 ? "" : ", ").append("SUM(CASE WHEN finished_at >= ? AND finished_at < ? THEN 1 ELSE 0 END)");
        }
        return jdbc.run((connection, db) -> {
            // The states are literals joined by OR, so that PostgreSQL reads the two partial indexes of finished
            // jobs as a range each; it reads IN ('DONE', 'FAILED') as a scan of the whole table.
            try (PreparedStatement select = connection.prepareStatement("SELECT " + sums + " FROM jobqueue_job"
                    + " WHERE queue = ? AND (state = 'DONE' OR state = 'FAILED') AND finished_at >= ?")) {
                int index = 1;
                for (int i = 0; i < minutes; i++) {
                    db.bind(select, index++, start.plus(MINUTE.multipliedBy(i)));
                    db.bind(select, index++, i == minutes - 1 ? now.plusNanos(1) : start.plus(MINUTE.multipliedBy(i + 1)));
                }
                select.setString(index++, queue);
                db.bind(select, index, start);
                long[] counts = new long[minutes];
                try (ResultSet row = select.executeQuery()) {
                    row.next();
                    for (int i = 0; i < minutes; i++) {
                        counts[i] = row.getLong(i + 1);
                    }
                }
                return counts;
            }
        });
    }

    /** When the queue's longest-waiting PENDING job that is due by {@code now} became due, or empty if none is. */
    public Optional<Instant> oldestDue(String queue, Instant now) {
        return jdbc.run((connection, db) -> {
            try (PreparedStatement select = connection.prepareStatement("SELECT run_at FROM jobqueue_job"
                    + " WHERE state = 'PENDING' AND queue = ? AND run_at <= ? ORDER BY run_at LIMIT 1")) {
                select.setString(1, queue);
                db.bind(select, 2, now);
                try (ResultSet row = select.executeQuery()) {
                    return row.next() ? Optional.of(db.instant(row, 1)) : Optional.empty();
                }
            }
        });
    }

    /** How many RUNNING jobs each node holds the lease of, by node name. */
    public Map<String, Long> runningByNode() {
        return jdbc.run((connection, db) -> {
            try (PreparedStatement select = connection.prepareStatement("SELECT claimed_by, COUNT(*)"
                    + " FROM jobqueue_job WHERE state = 'RUNNING' GROUP BY claimed_by");
                    ResultSet rows = select.executeQuery()) {
                Map<String, Long> running = new TreeMap<>();
                while (rows.next()) {
                    String node = rows.getString(1);
                    running.merge(node == null ? UNKNOWN_NODE : node, rows.getLong(2), Long::sum);
                }
                return running;
            }
        });
    }
}
