package dev.jobqueue.internal.trace;

/**
 * One job of a consumer call, as its span describes it.
 *
 * @param id      the job id
 * @param attempt this attempt's number, starting at 1
 * @param putBy   the trace context of the span that put the job, or null if there was none
 */
public record TracedJob(String id, int attempt, TraceContext putBy) {
}
