package dev.jobqueue.internal.store;

import java.time.Instant;

/**
 * One failed attempt of a job, as kept in its error history in {@code jobqueue_job_error}.
 *
 * @param attempt  the attempt that failed
 * @param failedAt when it failed
 * @param error    what it failed with
 */
public record JobErrorRow(int attempt, Instant failedAt, String error) {

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
