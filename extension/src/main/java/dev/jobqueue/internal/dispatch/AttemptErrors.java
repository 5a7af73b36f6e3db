package dev.jobqueue.internal.dispatch;

import dev.jobqueue.QueueBackoffException;
import jakarta.transaction.TransactionalException;

/** What an attempt's error says: the consumer's own exception, a backoff it asked for, the first line of a reason. */
final class AttemptErrors {

    private AttemptErrors() {
    }

    /** The {@link QueueBackoffException} among the error and its causes, or null. */
    static QueueBackoffException backoffIn(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof QueueBackoffException backoff) {
                return backoff;
            }
        }
        return null;
    }

    /** What a consumer's call threw, without the wrapper of a transaction interceptor. */
    static Throwable causeOf(Throwable thrown) {
        if (thrown instanceof TransactionalException && thrown.getCause() != null) {
            return thrown.getCause();
        }
        return thrown;
    }

    static String firstLine(String text) {
        int end = text.indexOf('\n');
        return end < 0 ? text : text.substring(0, end);
    }

    /** A job's completion that lost its database connection more often than it may be handed back: JQ046. */
    static final class CompletionNotWritten extends Exception {

        private static final long serialVersionUID = 1L;

        CompletionNotWritten(String reason, Throwable lost) {
            super(reason, lost);
        }
    }
}
