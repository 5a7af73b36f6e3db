package dev.jobqueue.internal.store;

/** A row stayed locked by another transaction for longer than a statement was willing to wait. */
public class LockWaitTimeout extends RuntimeException {

    private static final long serialVersionUID = 1L;

    LockWaitTimeout(String message, Throwable cause) {
        super(message, cause);
    }
}
