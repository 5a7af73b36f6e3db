package dev.jobqueue.internal.store;

import dev.jobqueue.internal.Messages;
import dev.jobqueue.internal.config.NodeName;
import dev.jobqueue.internal.trace.TraceContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * The writes of a put, in the caller's transaction, on the connection of jobqueue's persistence unit. They use
 * JDBC directly for two reasons: a dedupe-key conflict must leave the caller's transaction usable, which a
 * failed flush does not, and a put is the hot path. Timestamps are written in UTC, as Hibernate writes them.
 */
@ApplicationScoped
public class EnqueueStore {

    private static final String INTEGRITY_VIOLATION = "23";
    /** 10 parameters a row: PostgreSQL's driver takes at most 32,767 in one statement. */
    static final int ROWS_PER_INSERT = 1000;
    /** So that one statement of large payloads stays a few MiB: the payload limit is 1 MiB a job by default. */
    static final int PAYLOAD_CHARS_PER_INSERT = 4 * 1024 * 1024;
    private static final int BULK_PARAMETERS = 10;

    @Inject
    TransactionalJdbc jdbc;

    @Inject
    NodeName node;

    /**
     * Inserts the job, PENDING. False, with nothing written, if its dedupe key is held by an unfinished job of
     * the queue.
     */
    @Transactional(TxType.MANDATORY)
    public boolean insert(NewJob job) {
        return jdbc.run((connection, db) -> {
            String sql = "INSERT INTO jobqueue_job (id, queue, state, payload, attempts, priority, run_at, created_at,"
                    + " trace_parent, trace_state, dedupe_key, ordering_key, group_name)"
                    + " VALUES (?, ?, 'PENDING', ?, 0, ?, ?, ?, ?, ?, ?, ?, ?)"
                    + (job.dedupeKey() == null ? "" : db.insertUnlessDuplicate("id"));
            try (PreparedStatement insert = connection.prepareStatement(sql)) {
                bindJob(insert, db, job);
                setNullableString(insert, 9, job.dedupeKey());
                setNullableString(insert, 10, job.orderingKey());
                setNullableString(insert, 11, job.group());
                boolean counted = insert.executeUpdate() == 1;
                return job.dedupeKey() != null && db.reportsSkippedInsertAsRow() ? exists(connection, job.id())
                        : counted;
            } catch (SQLException e) {
                if (job.dedupeKey() != null && isIntegrityViolation(e)) {
                    return false;
                }
                throw e;
            }
        });
    }

    /**
     * Inserts the jobs, PENDING, in their order, with multi-row inserts of up to {@value #ROWS_PER_INSERT} rows
     * and about {@value #PAYLOAD_CHARS_PER_INSERT} characters of payload. Their dedupe keys are not written: a job
     * with a key goes through {@link #insert(NewJob)}.
     */
    @Transactional(TxType.MANDATORY)
    public void insertAll(List<NewJob> jobs) {
        jdbc.run((connection, db) -> {
            for (int from = 0, to; from < jobs.size(); from = to) {
                to = endOfInsert(jobs, from);
                List<NewJob> rows = jobs.subList(from, to);
                String values = String.join(", ", Collections.nCopies(rows.size(),
                        "(?, ?, 'PENDING', ?, 0, ?, ?, ?, ?, ?, NULL, ?, ?)"));
                try (PreparedStatement insert = connection.prepareStatement("INSERT INTO jobqueue_job (id, queue,"
                        + " state, payload, attempts, priority, run_at, created_at, trace_parent, trace_state,"
                        + " dedupe_key, ordering_key, group_name) VALUES " + values)) {
                    for (int row = 0; row < rows.size(); row++) {
                        NewJob job = rows.get(row);
                        int first = row * BULK_PARAMETERS;
                        bindJob(insert, db, job, first);
                        setNullableString(insert, first + 9, job.orderingKey());
                        setNullableString(insert, first + 10, job.group());
                    }
                    insert.executeUpdate();
                }
            }
            return null;
        });
    }

    /** The end of the multi-row insert that starts at {@code from}: by its rows, or its payloads' length. */
    private static int endOfInsert(List<NewJob> jobs, int from) {
        int to = from;
        long chars = 0;
        while (to < jobs.size() && to - from < ROWS_PER_INSERT && (to == from || chars < PAYLOAD_CHARS_PER_INSERT)) {
            chars += jobs.get(to).payload().length();
            to++;
        }
        return to;
    }

    /**
     * Inserts the job RUNNING under a lease this node holds, unless its queue is paused or backing off: a job that
     * starts on the node that put it, without a claim. Only for a job with no dedupe key, ordering key or
     * dependencies that is due now. False, with nothing written, if the queue is paused or backing off.
     */
    @Transactional(TxType.MANDATORY)
    public boolean insertRunning(NewJob job, String leaseToken, Instant startedAt, Instant leaseExpiresAt) {
        return jdbc.run((connection, db) -> {
            try (PreparedStatement insert = connection.prepareStatement("""
                    INSERT INTO jobqueue_job (id, queue, state, payload, attempts, priority, run_at, created_at,
                        trace_parent, trace_state, group_name, started_at, lease_token, lease_expires_at, claimed_by)
                    SELECT ?, ?, 'RUNNING', ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM (SELECT 1 AS one) one_row
                    WHERE NOT EXISTS (SELECT 1 FROM jobqueue_queue q WHERE q.name = ?
                        AND (q.paused = TRUE OR q.paused_until > ?))""")) {
                bindJob(insert, db, job);
                setNullableString(insert, 9, job.group());
                db.bind(insert, 10, startedAt);
                insert.setString(11, leaseToken);
                db.bind(insert, 12, leaseExpiresAt);
                insert.setString(13, node.value());
                insert.setString(14, job.queue());
                db.bind(insert, 15, startedAt);
                return insert.executeUpdate() == 1;
            }
        });
    }

    /** The unfinished job holding a dedupe key, locked until the transaction ends; empty if none holds it. */
    @Transactional(TxType.MANDATORY)
    public Optional<KeyHolder> lockKeyHolder(String queue, String key) {
        return jdbc.run((connection, db) -> {
            String sql = "SELECT id, state FROM jobqueue_job WHERE queue = ? AND " + db.heldKey()
                    + " FOR UPDATE";
            try (PreparedStatement select = connection.prepareStatement(sql)) {
                select.setString(1, queue);
                select.setString(2, key);
                try (ResultSet row = select.executeQuery()) {
                    return row.next() ? Optional.of(new KeyHolder(row.getString(1), JobState.valueOf(row.getString(2))))
                            : Optional.empty();
                }
            }
        });
    }

    /** Gives a job that has not started a new payload, due time and priority. False if it has started. */
    @Transactional(TxType.MANDATORY)
    public boolean replace(String id, String payload, Instant runAt, int priority) {
        return jdbc.run((connection, db) -> {
            try (PreparedStatement update = connection.prepareStatement("UPDATE jobqueue_job SET payload = ?,"
                    + " run_at = ?, priority = ? WHERE id = ? AND state IN ('PENDING', 'WAITING')")) {
                update.setString(1, payload);
                db.bind(update, 2, runAt);
                update.setInt(3, priority);
                update.setString(4, id);
                return update.executeUpdate() == 1;
            }
        });
    }

    /**
     * Makes the new job {@code id} wait for {@code dependencies}: WAITING while one of them is unfinished,
     * FAILED at once if one of them is FAILED. Marking the dependencies first locks them, so a dependency that
     * finishes concurrently either sees this job or is seen by it as finished.
     *
     * @return the state the job is in now
     */
    @Transactional(TxType.MANDATORY)
    public JobState addDependencies(String id, List<String> dependencies, Instant now) {
        return jdbc.run((connection, db) -> {
            String ids = Database.placeholders(dependencies.size());
            try (PreparedStatement mark = connection.prepareStatement(
                    "UPDATE jobqueue_job SET has_dependents = TRUE WHERE id IN (" + ids + ")")) {
                Database.bindStrings(mark, 1, dependencies);
                mark.executeUpdate();
            }
            try (PreparedStatement edge = connection.prepareStatement(
                    "INSERT INTO jobqueue_job_dependency (job_id, depends_on) VALUES (?, ?)")) {
                for (String dependency : dependencies) {
                    edge.setString(1, id);
                    edge.setString(2, dependency);
                    edge.addBatch();
                }
                edge.executeBatch();
            }
            List<String> failed = new ArrayList<>();
            List<String> cancelled = new ArrayList<>();
            boolean unfinished = false;
            try (PreparedStatement states = connection.prepareStatement(
                    "SELECT id, state FROM jobqueue_job WHERE id IN (" + ids + ") AND state <> 'DONE'")) {
                Database.bindStrings(states, 1, dependencies);
                try (ResultSet row = states.executeQuery()) {
                    while (row.next()) {
                        switch (JobState.valueOf(row.getString(2))) {
                            case FAILED -> failed.add(row.getString(1));
                            case CANCELLED -> cancelled.add(row.getString(1));
                            default -> unfinished = true;
                        }
                    }
                }
            }
            if (!failed.isEmpty() || !cancelled.isEmpty()) {
                setState(connection, db, id, JobState.FAILED, now, failed.isEmpty()
                        ? Messages.dependencyCancelled(cancelled.get(0)) : Messages.dependencyFailed(failed.get(0)));
                return JobState.FAILED;
            }
            if (unfinished) {
                setState(connection, db, id, JobState.WAITING, null, null);
                return JobState.WAITING;
            }
            return JobState.PENDING;
        });
    }

    /** Creates the group's row unless it exists; finishing the group's jobs locks it. */
    @Transactional(TxType.MANDATORY)
    public void ensureGroup(String group, Instant now) {
        jdbc.run((connection, db) -> {
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT name FROM jobqueue_group WHERE name = ?")) {
                select.setString(1, group);
                try (ResultSet row = select.executeQuery()) {
                    if (row.next()) {
                        return null;
                    }
                }
            }
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO jobqueue_group (name, created_at) VALUES (?, ?)"
                            + db.insertUnlessDuplicate("name"))) {
                insert.setString(1, group);
                db.bind(insert, 2, now);
                insert.executeUpdate();
            } catch (SQLException e) {
                if (!isIntegrityViolation(e)) {
                    throw e;
                }
            }
            return null;
        });
    }

    private static boolean exists(Connection connection, String id) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT id FROM jobqueue_job WHERE id = ?")) {
            select.setString(1, id);
            try (ResultSet row = select.executeQuery()) {
                return row.next();
            }
        }
    }

    private static void setState(Connection connection, Database db, String id, JobState state, Instant finishedAt,
            String error) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement(
                "UPDATE jobqueue_job SET state = ?, finished_at = ?, last_error = ? WHERE id = ?")) {
            update.setString(1, state.name());
            db.bind(update, 2, finishedAt);
            setNullableString(update, 3, error);
            update.setString(4, id);
            update.executeUpdate();
        }
    }

    private static boolean isIntegrityViolation(SQLException e) {
        return e.getSQLState() != null && e.getSQLState().startsWith(INTEGRITY_VIOLATION);
    }


    /**
     * Binds the first eight parameters of both inserts: id, queue, payload, priority, run_at, created_at,
     * trace_parent and trace_state.
     */
    private static void bindJob(PreparedStatement insert, Database db, NewJob job) throws SQLException {
        bindJob(insert, db, job, 0);
    }

    /** The same, for a row whose parameters follow {@code before} others. */
    private static void bindJob(PreparedStatement insert, Database db, NewJob job, int before) throws SQLException {
        insert.setString(before + 1, job.id());
        insert.setString(before + 2, job.queue());
        insert.setString(before + 3, job.payload());
        insert.setInt(before + 4, job.priority());
        db.bind(insert, before + 5, job.runAt());
        db.bind(insert, before + 6, job.createdAt());
        TraceContext putBy = job.putBy();
        setNullableString(insert, before + 7, putBy == null ? null : putBy.traceparent());
        setNullableString(insert, before + 8, putBy == null ? null : putBy.tracestate());
    }

    private static void setNullableString(PreparedStatement statement, int index, String value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.VARCHAR);
        } else {
            statement.setString(index, value);
        }
    }
}
