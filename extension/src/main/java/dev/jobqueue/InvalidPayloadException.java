package dev.jobqueue;

/**
 * Thrown by {@link JobQueue#put} when a payload cannot be stored: it is null, JSON-B cannot serialise it, or
 * its JSON is larger than the queue's {@code max-payload-size}. The message names the queue and the problem:
 * the payload type, or the size, the limit and the key that sets it. Nothing is written.
 */
public class InvalidPayloadException extends JobQueueException {

    private static final long serialVersionUID = 1L;

    public InvalidPayloadException(String message, Throwable cause) {
        super(message, cause);
    }
}
