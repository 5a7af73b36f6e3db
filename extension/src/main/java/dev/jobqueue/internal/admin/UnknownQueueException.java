package dev.jobqueue.internal.admin;

import java.util.NoSuchElementException;

/**
 * A queue that does not exist here, named in a pause or resume. The REST resource answers it with 404; to Java
 * callers it is the {@link NoSuchElementException} that {@link dev.jobqueue.JobAdmin#pause} documents.
 */
final class UnknownQueueException extends NoSuchElementException {

    private static final long serialVersionUID = 1L;

    UnknownQueueException(String message) {
        super(message);
    }
}
