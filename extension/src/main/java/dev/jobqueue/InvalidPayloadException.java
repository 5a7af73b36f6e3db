package dev.jobqueue;

/**
 * Thrown by {@link JobQueue#put} when a payload cannot be stored: it is null, or JSON-B cannot
 * serialise it. The message names the payload type and the queue. Nothing is written.
 */
public class InvalidPayloadException extends JobQueueException {

    private static final long serialVersionUID = 1L;

    public InvalidPayloadException(String message, Throwable cause) {
        super(message, cause);
    }
}
