package dev.jobqueue;

/** The base type of the exceptions jobqueue throws to its callers. */
public class JobQueueException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public JobQueueException(String message) {
        super(message);
    }

    public JobQueueException(String message, Throwable cause) {
        super(message, cause);
    }
}
