package dev.jobqueue.internal.store;

/** The life of a job: PENDING (due at run_at), RUNNING (lease held), then DONE or FAILED. */
public enum JobState {
    PENDING, RUNNING, DONE, FAILED
}
