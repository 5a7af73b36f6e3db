package dev.jobqueue.internal.task;

import dev.jobqueue.internal.store.DatabaseReachability;
import java.util.logging.Logger;

/**
 * One background task's record of a database outage. It logs the first failure and the recovery once each,
 * and during the outage lets the task try again only when the database answers a plain check, so that an
 * outage of any length costs two log lines, not a stack of Hibernate errors at every poll.
 */
public final class OutageLog {

    private final Logger log;
    private final String task;
    private final String meanwhile;
    private volatile boolean failing;

    /**
     * @param task      the task, as the log names it: "the poller of queue mail"
     * @param meanwhile what it does during the outage: "tries again every 1s"
     */
    public OutageLog(Logger log, String task, String meanwhile) {
        this.log = log;
        this.task = task;
        this.meanwhile = meanwhile;
    }

    /**
     * Runs one round of a task's work on the database, unless an outage is on that the check still sees: the
     * round is then skipped. A round that throws starts an outage; one that succeeds ends it.
     */
    public void attempt(DatabaseReachability database, Runnable work) {
        if (!mayTry(database)) {
            return;
        }
        try {
            work.run();
            succeeded();
        } catch (RuntimeException e) {
            failed(e);
        }
    }

    /** Whether the task should try its work now: always, except during an outage the check still sees. */
    public boolean mayTry(DatabaseReachability database) {
        return !failing || database.reachable();
    }

    public void failed(Throwable error) {
        if (!failing) {
            failing = true;
            log.warning("jobqueue: " + task + " cannot use the database and " + meanwhile + ": " + error);
        }
    }

    public void succeeded() {
        if (failing) {
            failing = false;
            log.info("jobqueue: " + task + " uses the database again");
        }
    }
}
