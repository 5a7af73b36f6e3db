package dev.jobqueue.internal.store;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The SQL of recurring schedules, in the caller's JTA transaction. Firing locks a due schedule with
 * {@code SKIP LOCKED}, so two nodes never fire one schedule at once, and moves it on with a statement fenced on
 * the next fire time it read, so an occurrence is put at most once even if a lock were lost.
 */
@ApplicationScoped
public class ScheduleStore {

    private static final String COLUMNS = "s.name, s.queue, s.cron, s.zone, s.payload, s.missed, s.missed_after_ms,"
            + " s.catch_up_limit, s.overlap, s.declared, s.enabled, s.paused, s.next_fire_at, s.last_fire_at,"
            + " s.last_job_id, s.declaration_gone";
    private static final String ACTIVE = "s.enabled = TRUE AND s.paused = FALSE";

    @Inject
    TransactionalJdbc jdbc;

    /** The names of the schedules of {@code queues} due at {@code now}, earliest first, without locking them. */
    public List<String> due(Instant now, Set<String> queues, int limit) {
        if (queues.isEmpty()) {
            return List.of();
        }
        String placeholders = String.join(", ", Collections.nCopies(queues.size(), "?"));
        return jdbc.run((connection, database) -> {
            try (PreparedStatement select = connection.prepareStatement("SELECT s.name FROM jobqueue_schedule s"
                    + " WHERE " + ACTIVE + " AND s.next_fire_at <= ? AND s.queue IN (" + placeholders + ")"
                    + " ORDER BY s.next_fire_at LIMIT ?")) {
                database.bind(select, 1, now);
                int index = 2;
                for (String queue : queues) {
                    select.setString(index++, queue);
                }
                select.setInt(index, limit);
                List<String> due = new ArrayList<>();
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        due.add(rows.getString(1));
                    }
                }
                return due;
            }
        });
    }

    /** Locks the schedule if it is still due and no other node holds it. */
    public Optional<ScheduleRow> lockDue(String name, Instant now) {
        return one("SELECT " + COLUMNS + " FROM jobqueue_schedule s WHERE s.name = ? AND " + ACTIVE
                + " AND s.next_fire_at <= ? FOR UPDATE SKIP LOCKED", name, now);
    }

    /** Locks the schedule, waiting for another transaction that holds it. */
    public Optional<ScheduleRow> lock(String name) {
        return one("SELECT " + COLUMNS + " FROM jobqueue_schedule s WHERE s.name = ? FOR UPDATE", name, null);
    }

    /** The schedule with its last occurrence's job state. */
    public Optional<ScheduleRow> find(String name) {
        List<ScheduleRow> rows = list("WHERE s.name = ?", name, 1);
        return rows.stream().findFirst();
    }

    /** Every schedule, by name, with its last occurrence's job state. */
    public List<ScheduleRow> list() {
        return list("", null, Integer.MAX_VALUE);
    }

    /** At most {@code limit} schedules named after {@code after} (null for the first), by name. */
    public List<ScheduleRow> page(String after, int limit) {
        return after == null ? list("", null, limit) : list("WHERE s.name > ?", after, limit);
    }

    /** Those of {@code names} that are schedules. */
    public Set<String> existing(Collection<String> names) {
        if (names.isEmpty()) {
            return Set.of();
        }
        return jdbc.run((connection, database) -> {
            try (PreparedStatement select = connection.prepareStatement("SELECT name FROM jobqueue_schedule"
                    + " WHERE name IN (" + Database.placeholders(names.size()) + ")")) {
                Database.bindStrings(select, 1, List.copyOf(names));
                Set<String> found = new HashSet<>();
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        found.add(rows.getString(1));
                    }
                }
                return found;
            }
        });
    }

    /**
     * Moves a fired schedule on to {@code nextFireAt}, if its next fire time is still {@code expected}.
     *
     * @param lastJobId the job put for its latest occurrence, or null to keep the last one
     * @return false if another transaction moved it first
     */
    public boolean advance(String name, Instant expected, Instant nextFireAt, Instant lastFireAt, String lastJobId,
            Instant now) {
        return jdbc.run((connection, database) -> {
            try (PreparedStatement update = connection.prepareStatement("UPDATE jobqueue_schedule SET next_fire_at = ?,"
                    + " last_fire_at = COALESCE(?, last_fire_at), last_job_id = COALESCE(?, last_job_id), updated_at = ?"
                    + " WHERE name = ? AND next_fire_at = ?")) {
                database.bind(update, 1, nextFireAt);
                database.bind(update, 2, lastFireAt);
                update.setString(3, lastJobId);
                database.bind(update, 4, now);
                update.setString(5, name);
                database.bind(update, 6, expected);
                return update.executeUpdate() == 1;
            }
        });
    }

    /** Records a job put for the schedule outside its times, by an operator. */
    public void triggered(String name, Instant at, String jobId) {
        jdbc.run((connection, database) -> {
            try (PreparedStatement update = connection.prepareStatement(
                    "UPDATE jobqueue_schedule SET last_fire_at = ?, last_job_id = ?, updated_at = ? WHERE name = ?")) {
                database.bind(update, 1, at);
                update.setString(2, jobId);
                database.bind(update, 3, at);
                update.setString(4, name);
                return update.executeUpdate();
            }
        });
    }

    /** The state of a job, if it still exists. */
    public Optional<String> jobState(String jobId) {
        return jdbc.run((connection, database) -> {
            try (PreparedStatement select = connection.prepareStatement("SELECT state FROM jobqueue_job WHERE id = ?")) {
                select.setString(1, jobId);
                try (ResultSet row = select.executeQuery()) {
                    return row.next() ? Optional.of(row.getString(1)) : Optional.<String>empty();
                }
            }
        });
    }

    public void insert(ScheduleRow row, Instant now) {
        jdbc.run((connection, database) -> {
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO jobqueue_schedule (name, queue,"
                    + " cron, zone, payload, missed, missed_after_ms, catch_up_limit, overlap, declared, enabled,"
                    + " declaration_gone, paused, next_fire_at, updated_at)"
                    + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                insert.setString(1, row.name());
                bindDefinition(insert, 2, row, database);
                insert.setBoolean(13, row.paused());
                database.bind(insert, 14, row.nextFireAt());
                database.bind(insert, 15, now);
                return insert.executeUpdate();
            }
        });
    }

    /** Writes the row's definition and next fire time; its pause switch and last occurrence stay. */
    public void update(ScheduleRow row, Instant now) {
        jdbc.run((connection, database) -> {
            try (PreparedStatement update = connection.prepareStatement("UPDATE jobqueue_schedule SET queue = ?,"
                    + " cron = ?, zone = ?, payload = ?, missed = ?, missed_after_ms = ?, catch_up_limit = ?, overlap = ?,"
                    + " declared = ?, enabled = ?, declaration_gone = ?, next_fire_at = ?, updated_at = ?"
                    + " WHERE name = ?")) {
                bindDefinition(update, 1, row, database);
                database.bind(update, 12, row.nextFireAt());
                database.bind(update, 13, now);
                update.setString(14, row.name());
                return update.executeUpdate();
            }
        });
    }

    /** Pauses or resumes a schedule; a resumed one fires next at {@code nextFireAt}. */
    public boolean setPaused(String name, boolean paused, Instant nextFireAt, Instant now) {
        return jdbc.run((connection, database) -> {
            try (PreparedStatement update = connection.prepareStatement("UPDATE jobqueue_schedule SET paused = ?,"
                    + " next_fire_at = COALESCE(?, next_fire_at), updated_at = ? WHERE name = ?")) {
                update.setBoolean(1, paused);
                database.bind(update, 2, nextFireAt);
                database.bind(update, 3, now);
                update.setString(4, name);
                return update.executeUpdate() == 1;
            }
        });
    }

    /** Turns a schedule off, keeping its row, such as one whose row cannot be read. */
    public void disable(String name, Instant now) {
        jdbc.run((connection, database) -> {
            try (PreparedStatement update = connection.prepareStatement(
                    "UPDATE jobqueue_schedule SET enabled = FALSE, updated_at = ? WHERE name = ?")) {
                database.bind(update, 1, now);
                update.setString(2, name);
                return update.executeUpdate();
            }
        });
    }

    /**
     * Turns a declared schedule off, keeping its row, with {@code declaration_gone} set, if it is on and no node has
     * declared it since {@code seenSince}.
     *
     * @return whether it was turned off now
     */
    public boolean turnOffUndeclared(String name, Instant seenSince, Instant now) {
        return jdbc.run((connection, database) -> {
            try (PreparedStatement update = connection.prepareStatement("UPDATE jobqueue_schedule SET enabled = FALSE,"
                    + " declaration_gone = TRUE, updated_at = ? WHERE name = ? AND declared = TRUE AND enabled = TRUE"
                    + " AND NOT EXISTS (SELECT 1 FROM jobqueue_schedule_declaration d"
                    + " WHERE d.schedule = jobqueue_schedule.name AND d.seen_at >= ?)")) {
                database.bind(update, 1, now);
                update.setString(2, name);
                database.bind(update, 3, seenSince);
                return update.executeUpdate() == 1;
            }
        });
    }

    public boolean delete(String name) {
        return jdbc.run((connection, database) -> {
            try (PreparedStatement delete = connection.prepareStatement("DELETE FROM jobqueue_schedule WHERE name = ?")) {
                delete.setString(1, name);
                return delete.executeUpdate() == 1;
            }
        });
    }

    private static void bindDefinition(PreparedStatement statement, int first, ScheduleRow row, Database database)
            throws SQLException {
        statement.setString(first, row.queue());
        statement.setString(first + 1, row.cron());
        statement.setString(first + 2, row.zone());
        statement.setString(first + 3, row.payload());
        statement.setString(first + 4, row.missed());
        statement.setLong(first + 5, row.missedAfterMs());
        statement.setInt(first + 6, row.catchUpLimit());
        statement.setString(first + 7, row.overlap());
        statement.setBoolean(first + 8, row.declared());
        statement.setBoolean(first + 9, row.enabled());
        statement.setBoolean(first + 10, row.declarationGone());
    }

    private Optional<ScheduleRow> one(String sql, String name, Instant now) {
        return jdbc.run((connection, database) -> {
            try (PreparedStatement select = connection.prepareStatement(sql)) {
                select.setString(1, name);
                if (now != null) {
                    database.bind(select, 2, now);
                }
                try (ResultSet row = select.executeQuery()) {
                    return row.next() ? Optional.of(row(row, database, null)) : Optional.<ScheduleRow>empty();
                }
            }
        });
    }

    private List<ScheduleRow> list(String where, String name, int limit) {
        return jdbc.run((connection, database) -> {
            try (PreparedStatement select = connection.prepareStatement("SELECT " + COLUMNS + ", j.state"
                    + " FROM jobqueue_schedule s LEFT JOIN jobqueue_job j ON j.id = s.last_job_id " + where
                    + " ORDER BY s.name" + (limit == Integer.MAX_VALUE ? "" : " LIMIT " + limit))) {
                if (name != null) {
                    select.setString(1, name);
                }
                List<ScheduleRow> rows = new ArrayList<>();
                try (ResultSet row = select.executeQuery()) {
                    while (row.next()) {
                        rows.add(row(row, database, row.getString(17)));
                    }
                }
                return rows;
            }
        });
    }

    private static ScheduleRow row(ResultSet row, Database database, String lastJobState) throws SQLException {
        return new ScheduleRow(row.getString(1), row.getString(2), row.getString(3), row.getString(4), row.getString(5),
                row.getString(6), row.getLong(7), row.getInt(8), row.getString(9), row.getBoolean(10),
                row.getBoolean(11), row.getBoolean(16), row.getBoolean(12), database.instant(row, 13),
                database.instant(row, 14), row.getString(15), lastJobState);
    }
}
