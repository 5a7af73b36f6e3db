package dev.jobqueue.internal.admin;

/**
 * A job that cannot be retried because a job it waits for is FAILED. The REST resource answers it with 409; to
 * Java callers it is the {@link IllegalStateException} that {@link dev.jobqueue.JobAdmin#retry} documents.
 */
final class FailedDependencyException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    FailedDependencyException(String message) {
        super(message);
    }
}
