package dev.jobqueue;

/** What {@link JobAdmin#cancel(JobId)} did. */
public enum CancelOutcome {
    /** The job had not started (PENDING or WAITING): it is CANCELLED now, and the jobs that wait for it FAILED. */
    CANCELLED,
    /** The job is RUNNING: nothing changed. A running job cannot be cancelled yet. */
    RUNNING,
    /** The job had already finished (DONE, FAILED or CANCELLED): nothing changed. */
    FINISHED,
    /** There is no such job. */
    NOT_FOUND
}
