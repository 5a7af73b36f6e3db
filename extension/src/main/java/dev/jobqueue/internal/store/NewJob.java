package dev.jobqueue.internal.store;

import dev.jobqueue.internal.trace.TraceContext;
import java.time.Instant;
import java.util.Set;

/**
 * A job about to be put.
 *
 * @param id          its id
 * @param queue       its queue
 * @param payload     the JSON payload
 * @param priority    its priority
 * @param runAt       when it is due
 * @param createdAt   when it is put
 * @param dedupeKey   its dedupe key, or null
 * @param orderingKey its ordering key, or null
 * @param group       its group, or null
 * @param after       the ids of the jobs it waits for
 * @param putBy       the trace context of the span that puts it, or null
 */
public record NewJob(String id, String queue, String payload, int priority, Instant runAt, Instant createdAt,
        String dedupeKey, String orderingKey, String group, Set<String> after, TraceContext putBy) {

    /** The same job, waiting for {@code jobs} instead. */
    public NewJob withAfter(Set<String> jobs) {
        return new NewJob(id, queue, payload, priority, runAt, createdAt, dedupeKey, orderingKey, group, jobs, putBy);
    }
}
