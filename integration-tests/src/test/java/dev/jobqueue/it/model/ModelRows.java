package dev.jobqueue.it.model;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/** Reads the model's queues' rows with plain JDBC, and clears them before each sequence. */
@ApplicationScoped
public class ModelRows {

    private static final Pattern N = Pattern.compile("\"n\"\\s*:\\s*(\\d+)");
    private static final String IN_QUEUES = " IN ('" + String.join("','", ModelConsumers.QUEUES) + "')";

    @Resource(lookup = "java:comp/DefaultDataSource")
    DataSource dataSource;

    /** A job row: {@code n} is its payload's script number. */
    public record Row(String id, long seq, String queue, String state, int attempts, Instant runAt, String key,
            String orderingKey, String group, int n, String lastError) {

        public boolean unfinished() {
            return state.equals("PENDING") || state.equals("RUNNING") || state.equals("WAITING");
        }

        /** FAILED or CANCELLED: finished, and not DONE, so a job that waits for it fails. */
        public boolean ended() {
            return state.equals("FAILED") || state.equals("CANCELLED");
        }

        @Override
        public String toString() {
            return "#" + seq + " " + queue + " " + state + " attempts=" + attempts + " n=" + n
                    + (key == null ? "" : " key=" + key) + (orderingKey == null ? "" : " ok=" + orderingKey)
                    + (group == null ? "" : " group=" + group);
        }
    }

    /** A queue's switch and a consumer's backoff. */
    public record QueueRow(boolean paused, Instant pausedUntil) {
    }

    /** Every row of the model's queues, with the jobs each waits for, at {@code now}. */
    public record Snapshot(Map<String, Row> jobs, Map<String, List<String>> waitsFor, Map<String, QueueRow> queues,
            Instant now) {

        public Row job(String id) {
            return jobs.get(id);
        }

        public List<String> deps(String id) {
            return waitsFor.getOrDefault(id, List.of());
        }
    }

    public Snapshot snapshot(Instant now) {
        try (Connection c = dataSource.getConnection()) {
            Map<String, Row> jobs = new LinkedHashMap<>();
            try (PreparedStatement s = c.prepareStatement("SELECT id, seq, queue, state, attempts, run_at, dedupe_key,"
                    + " ordering_key, group_name, payload, last_error FROM jobqueue_job WHERE queue" + IN_QUEUES
                    + " ORDER BY seq"); ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    Matcher n = N.matcher(r.getString(10));
                    jobs.put(r.getString(1), new Row(r.getString(1), r.getLong(2), r.getString(3), r.getString(4),
                            r.getInt(5), instant(r, 6), r.getString(7), r.getString(8), r.getString(9),
                            n.find() ? Integer.parseInt(n.group(1)) : -1, r.getString(11)));
                }
            }
            Map<String, List<String>> waitsFor = new LinkedHashMap<>();
            try (PreparedStatement s = c.prepareStatement("SELECT d.job_id, d.depends_on FROM jobqueue_job_dependency d"
                    + " JOIN jobqueue_job j ON j.id = d.job_id WHERE j.queue" + IN_QUEUES + " ORDER BY d.depends_on");
                    ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    waitsFor.computeIfAbsent(r.getString(1), id -> new ArrayList<>()).add(r.getString(2));
                }
            }
            Map<String, QueueRow> queues = new LinkedHashMap<>();
            try (PreparedStatement s = c.prepareStatement("SELECT name, paused, paused_until FROM jobqueue_queue"
                    + " WHERE name" + IN_QUEUES); ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    queues.put(r.getString(1), new QueueRow(r.getBoolean(2), instant(r, 3)));
                }
            }
            return new Snapshot(jobs, waitsFor, queues, now);
        } catch (SQLException e) {
            throw new IllegalStateException("model: cannot read the rows", e);
        }
    }

    /** Deletes every job and group, and lifts every switch, limit and backoff of the model's queues. */
    public void clear() {
        try (Connection c = dataSource.getConnection()) {
            for (String sql : List.of("DELETE FROM jobqueue_job WHERE queue" + IN_QUEUES,
                    "DELETE FROM jobqueue_group",
                    "UPDATE jobqueue_queue SET paused = FALSE, paused_until = NULL, rate_limit = NULL,"
                            + " max_running = NULL, start_window = NULL WHERE name" + IN_QUEUES)) {
                try (PreparedStatement s = c.prepareStatement(sql)) {
                    s.executeUpdate();
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("model: cannot clear the rows", e);
        }
    }

    private static Instant instant(ResultSet r, int column) throws SQLException {
        Object value = r.getObject(column);
        if (value == null) {
            return null;
        }
        if (value instanceof OffsetDateTime time) {
            return time.toInstant();
        }
        if (value instanceof Timestamp time) {
            return time.toInstant();
        }
        return r.getObject(column, OffsetDateTime.class).toInstant();
    }
}
