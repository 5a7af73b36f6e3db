package dev.jobqueue.internal.store;

import java.time.Instant;

/**
 * A job as the dashboard's listings show it: no payload, and only the start of its last error.
 *
 * @param id          the job
 * @param queue       its queue
 * @param state       its state
 * @param attempts    attempts made
 * @param priority    its priority
 * @param createdAt   when it was put
 * @param runAt       when it is or was due
 * @param finishedAt  when it became DONE or FAILED, or null
 * @param lastError   the first {@value JobBrowser#ERROR_PREVIEW_CHARS} characters of its last error, or null
 * @param dedupeKey   its dedupe key, or null
 * @param orderingKey its ordering key, or null
 * @param group       its group, or null
 * @param claimedBy   the node that claimed it last, or null
 * @param progress    the fraction its last attempt reported ({@code JobContext.progress}), or null
 */
public record ListedJob(String id, String queue, JobState state, int attempts, int priority, Instant createdAt,
        Instant runAt, Instant finishedAt, String lastError, String dedupeKey, String orderingKey, String group,
        String claimedBy, Double progress) {
}
