package dev.jobqueue.internal.enqueue;

import dev.jobqueue.internal.dispatch.LocalStart;
import dev.jobqueue.internal.store.NewJob;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;

/** Starts a job written RUNNING by a put once the put commits; gives its held runner back if it rolls back. */
final class StartAfterCommit implements Synchronization {

    private final LocalStart start;
    private final NewJob job;

    StartAfterCommit(LocalStart start, NewJob job) {
        this.start = start;
        this.job = job;
    }

    @Override
    public void beforeCompletion() {
        // nothing to do before the commit
    }

    @Override
    public void afterCompletion(int status) {
        if (status == Status.STATUS_COMMITTED) {
            start.run(job);
        } else {
            start.cancel();
        }
    }
}
