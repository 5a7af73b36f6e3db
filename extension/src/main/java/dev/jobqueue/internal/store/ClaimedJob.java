package dev.jobqueue.internal.store;

import dev.jobqueue.internal.trace.TraceContext;
import dev.jobqueue.internal.trace.TracedJob;
import java.time.Instant;

/**
 * A job this node has claimed and may run while it holds the lease.
 *
 * @param id         the job id
 * @param queue      the queue
 * @param payload    the JSON payload
 * @param attempt    this attempt's number, starting at 1
 * @param enqueuedAt when the job was put
 * @param dueAt      when this attempt became due
 * @param leaseToken the token that fences every later write
 * @param group      the job's group, or null
 * @param orderingKey the job's ordering key, or null
 * @param priority   the job's priority
 * @param putBy      the trace context of the span that put the job, or null
 */
public record ClaimedJob(String id, String queue, String payload, int attempt, Instant enqueuedAt,
        Instant dueAt, String leaseToken, String group, String orderingKey, int priority,
        TraceContext putBy) {

    /** The job as the span of its consumer call describes it. */
    public TracedJob traced() {
        return new TracedJob(id, attempt, putBy);
    }
}
