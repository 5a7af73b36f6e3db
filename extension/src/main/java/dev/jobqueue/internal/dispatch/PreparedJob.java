package dev.jobqueue.internal.dispatch;

import dev.jobqueue.internal.store.ClaimedJob;

/**
 * A claimed job ready for its consumer's call: its payload read and its context made. Or, with {@code refused}
 * set, the outcome of a job that must not run: its attempts were used up, or its payload does not fit.
 */
record PreparedJob(ClaimedJob job, Object payload, ClaimedJobContext context, Outcome refused) {

    static PreparedJob refused(ClaimedJob job, Outcome outcome) {
        return new PreparedJob(job, null, null, outcome);
    }
}
