package dev.jobqueue.internal.store;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/**
 * One job, as stored in the {@code jobqueue_job} table. The DDL ships in {@code META-INF/jobqueue/schema/}.
 * Jobs are inserted by {@link EnqueueStore}; this entity reads them and moves them through their states.
 */
@Entity(name = "JobqueueJob")
@Table(name = "jobqueue_job")
public class JobRow {

    @Id
    @Column(name = "id", length = 36)
    private String id;

    @Column(name = "seq", insertable = false, updatable = false)
    private Long seq;

    @Column(name = "queue", nullable = false, length = 100)
    private String queue;

    @Enumerated(EnumType.STRING)
    @Column(name = "state", nullable = false, length = 16)
    private JobState state;

    @Column(name = "payload", nullable = false)
    private String payload;

    @Column(name = "attempts", nullable = false)
    private int attempts;

    @Column(name = "priority", nullable = false)
    private int priority;

    @Column(name = "run_at", nullable = false)
    private Instant runAt;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "started_at")
    private Instant startedAt;

    @Column(name = "finished_at")
    private Instant finishedAt;

    @Column(name = "lease_token", length = 36)
    private String leaseToken;

    @Column(name = "lease_expires_at")
    private Instant leaseExpiresAt;

    @Column(name = "last_error")
    private String lastError;

    @Column(name = "dedupe_key", length = 200)
    private String dedupeKey;

    @Column(name = "ordering_key", length = 200)
    private String orderingKey;

    @Column(name = "group_name", length = 200)
    private String groupName;

    @Column(name = "has_dependents", nullable = false)
    private boolean hasDependents;

    protected JobRow() {
    }

    /**
     * Hands a job whose lease expired back to the queue. It keeps its due time, and so its place ahead of jobs
     * put after it; the cut-short attempt stays counted.
     */
    void release() {
        this.state = JobState.PENDING;
        this.leaseToken = null;
        this.leaseExpiresAt = null;
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
