package dev.jobqueue.internal.store;

import java.util.Set;

/**
 * The life of a job: WAITING (for the jobs it depends on), PENDING (due at run_at), RUNNING (lease held), then
 * DONE or FAILED; or CANCELLED by an operator before it started.
 */
public enum JobState {
    WAITING, PENDING, RUNNING, DONE, FAILED, CANCELLED;

    /** The states of a job that is not finished: it holds its dedupe key and its place in its ordering key. */
    public static final Set<JobState> UNFINISHED = Set.of(WAITING, PENDING, RUNNING);
}
