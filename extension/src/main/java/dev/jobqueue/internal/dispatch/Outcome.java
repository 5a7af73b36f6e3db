package dev.jobqueue.internal.dispatch;

/** How one attempt of a job ended. */
public enum Outcome {
    /** The consumer returned, or threw a success-on exception; the job is DONE. */
    DONE,
    /**
     * The consumer of a non-transactional queue returned; the worker marks the job DONE together with others
     * (see {@link CompletionBatch}).
     */
    SUCCEEDED,
    /** The consumer threw; the job runs again after its backoff. */
    RETRY,
    /** The job gave up, or its payload could not be read; it is FAILED. */
    FAILED,
    /** Another claim took the job over; this attempt's work was rolled back. */
    LEASE_LOST,
    /** The outcome could not be written; the job runs again once its lease expires. */
    NOT_RECORDED,
    /**
     * The attempt lost its database connection (a failover, a restart); the job was handed back with the attempt not
     * counted, and runs again at once.
     */
    HANDED_BACK,
    /** The consumer told the queue to back off; the job runs again after the wait, the attempt not counted. */
    BACKED_OFF;

    boolean isFailure() {
        return this == RETRY || this == FAILED;
    }

    /** Whether the attempt's work did not commit: it failed, lost its lease, or its outcome was not written. */
    boolean failedAttempt() {
        return isFailure() || this == LEASE_LOST || this == NOT_RECORDED || this == HANDED_BACK;
    }
}
