package dev.jobqueue;

/**
 * Thrown by a put whose dedupe key is already held by an unfinished job of the queue, when its
 * {@link DuplicatePolicy} is {@link DuplicatePolicy#REJECT}, or {@link DuplicatePolicy#REPLACE} and that job is
 * already running. Nothing was written, and the caller's transaction is not marked for rollback.
 */
public class DuplicateJobException extends JobQueueException {

    private static final long serialVersionUID = 1L;

    private final transient JobId existing;

    public DuplicateJobException(String message, JobId existing) {
        super(message);
        this.existing = existing;
    }

    /** The unfinished job that holds the key. */
    public JobId existing() {
        return existing;
    }
}
