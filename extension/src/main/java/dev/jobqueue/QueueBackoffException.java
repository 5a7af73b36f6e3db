package dev.jobqueue;

import java.time.Duration;
import java.util.Objects;

/**
 * Thrown by a consumer to make its whole queue wait, on every node: when the service it calls says "too many
 * requests, retry after 30 seconds". No node claims a job of the queue until the wait is over. The job that threw
 * runs again after it, and this attempt does not count towards {@code max-attempts}; it is no failure.
 *
 * <pre>{@code
 * if (response.statusCode() == 429) {
 *     throw new QueueBackoffException(Duration.ofSeconds(30), "partner API: 429 Too Many Requests");
 * }
 * }</pre>
 *
 * <p>A transactional consumer's writes roll back, as for any exception. A longer wait already in force stays.
 * Jobs another node claimed before the wait began may still start there: a queue with a {@code rate-limit} or
 * {@code max-running} claims no more than it starts, so on such a queue none do.
 */
public class QueueBackoffException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final Duration wait;

    /**
     * @param wait   how long the queue waits, more than zero
     * @param reason why, for the log
     */
    public QueueBackoffException(Duration wait, String reason) {
        super(reason);
        Objects.requireNonNull(wait, "wait");
        if (wait.isNegative() || wait.isZero()) {
            throw new IllegalArgumentException("a queue's wait must be longer than zero, not " + wait);
        }
        this.wait = wait;
    }

    /** How long the queue waits. */
    public Duration getWait() {
        return wait;
    }
}
