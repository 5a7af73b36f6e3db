package dev.jobqueue.internal.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

/**
 * One job, as stored in the {@code jobqueue_job} table, payload included. The DDL ships in
 * {@code META-INF/jobqueue/schema/}. Jobs are inserted by {@link EnqueueStore}; this is how the admin API and the
 * test kit read one.
 */
public final class JobRow {

    /** The select list that {@link #read} reads, in its order. */
    static final String COLUMNS = "id, queue, state, payload, attempts, priority, run_at, created_at, started_at,"
            + " finished_at, lease_token, lease_expires_at, last_error, dedupe_key, ordering_key, group_name";

    private final String id;
    private final String queue;
    private final JobState state;
    private final String payload;
    private final int attempts;
    private final int priority;
    private final Instant runAt;
    private final Instant createdAt;
    private final Instant startedAt;
    private final Instant finishedAt;
    private final String leaseToken;
    private final Instant leaseExpiresAt;
    private final String lastError;
    private final String dedupeKey;
    private final String orderingKey;
    private final String groupName;

    private JobRow(ResultSet row, Database db) throws SQLException {
        id = row.getString(1);
        queue = row.getString(2);
        state = JobState.valueOf(row.getString(3));
        payload = row.getString(4);
        attempts = row.getInt(5);
        priority = row.getInt(6);
        runAt = db.instant(row, 7);
        createdAt = db.instant(row, 8);
        startedAt = db.instant(row, 9);
        finishedAt = db.instant(row, 10);
        leaseToken = row.getString(11);
        leaseExpiresAt = db.instant(row, 12);
        lastError = row.getString(13);
        dedupeKey = row.getString(14);
        orderingKey = row.getString(15);
        groupName = row.getString(16);
    }

    /** Reads a row selected with {@link #COLUMNS}. */
    static JobRow read(ResultSet row, Database db) throws SQLException {
        return new JobRow(row, db);
    }

    public String getId() {
        return id;
    }

    public String getQueue() {
        return queue;
    }

    public JobState getState() {
        return state;
    }

    public String getPayload() {
        return payload;
    }

    public int getAttempts() {
        return attempts;
    }

    public Instant getRunAt() {
        return runAt;
    }

    public Instant getCreatedAt() {
        return createdAt;
    }

    public Instant getStartedAt() {
        return startedAt;
    }

    public Instant getFinishedAt() {
        return finishedAt;
    }

    public String getLeaseToken() {
        return leaseToken;
    }

    public Instant getLeaseExpiresAt() {
        return leaseExpiresAt;
    }

    public String getLastError() {
        return lastError;
    }

    public int getPriority() {
        return priority;
    }

    public String getDedupeKey() {
        return dedupeKey;
    }

    public String getOrderingKey() {
        return orderingKey;
    }

    public String getGroupName() {
        return groupName;
    }
}
