package dev.jobqueue.internal.dispatch;

/**
 * A consumer returned normally, but its transaction was marked rollback-only, so its writes were rolled back:
 * the attempt failed, whatever the consumer thought.
 */
final class RollbackOnlyException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    RollbackOnlyException(String message) {
        super(message, null, false, false);
    }
}
