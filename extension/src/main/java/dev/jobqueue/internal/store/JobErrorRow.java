package dev.jobqueue.internal.store;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;

/** One failed attempt of a job, kept as its error history in {@code jobqueue_job_error}. */
@Entity(name = "JobqueueJobError")
@Table(name = "jobqueue_job_error")
public class JobErrorRow {

    @Id
    @Column(name = "id", length = 36)
    private String id;

    @Column(name = "job_id", nullable = false, length = 36)
    private String jobId;

    @Column(name = "attempt", nullable = false)
    private int attempt;

    @Column(name = "failed_at", nullable = false)
    private Instant failedAt;

    @Column(name = "error", nullable = false)
    private String error;

    protected JobErrorRow() {
    }

    JobErrorRow(String jobId, int attempt, Instant failedAt, String error) {
        this.id = UUID.randomUUID().toString();
        this.jobId = jobId;
        this.attempt = attempt;
        this.failedAt = failedAt;
        this.error = error;
    }

    public int getAttempt() {
        return attempt;
    }

    public Instant getFailedAt() {
        return failedAt;
    }

    public String getError() {
        return error;
    }
}
