package dev.jobqueue.internal.config;

import java.time.Duration;
import java.util.List;

/**
 * The resolved options of one queue on this node. The README describes each one and its default.
 *
 * @param queue          the queue name
 * @param maxAttempts    attempts before a job gives up and becomes FAILED
 * @param backoff        the wait between attempts
 * @param lease          how long a claim stays valid without renewal
 * @param maxExecuteTime how long a consumer may run before it is logged as stuck
 * @param pollInterval   how often the queue is polled for jobs put by other nodes and for retries
 * @param concurrency    how many of the queue's jobs run at once on this node
 * @param batchSize      how many jobs one claim takes at most
 * @param jobsPerCall    how many jobs one call of a batch consumer takes at most; 1 for other consumers
 * @param jobsPerTransaction how many waiting jobs of a consumer of one job per call run in one transaction at most
 * @param enabled        whether this node consumes the queue
 * @param successOn      exception types that count as success
 * @param transactional  whether the consumer runs in the transaction that marks the job DONE
 * @param retention      how long DONE jobs are kept; zero deletes them at completion
 * @param maxPayloadSize the largest payload a put on this node accepts for the queue
 * @param strictPayload  whether a payload whose fields differ from its type's fails at once
 * @param limits         the cluster-wide rate limit and maximum of RUNNING jobs, as configured on this node
 * @param traceParent    how a consumer call's span relates to the span that put the job
 */
public record QueueOptions(String queue, int maxAttempts, Backoff backoff, Duration lease, Duration maxExecuteTime,
        Duration pollInterval, int concurrency, int batchSize, int jobsPerCall, int jobsPerTransaction, boolean enabled,
        List<Class<? extends Throwable>> successOn, boolean transactional, Duration retention,
        PayloadLimit maxPayloadSize, boolean strictPayload, QueueLimits limits, TraceParent traceParent) {

    public QueueOptions {
        successOn = List.copyOf(successOn);
    }

    /** How many claimed jobs one runner takes at once: a batch consumer's call, or one transaction's calls. */
    public int jobsPerRun() {
        return Math.max(jobsPerCall, jobsPerTransaction);
    }

    /** Whether {@code error}, or any of its causes, is one of the {@link #successOn()} types. */
    public boolean countsAsSuccess(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            for (Class<? extends Throwable> type : successOn) {
                if (type.isInstance(cause)) {
                    return true;
                }
            }
        }
        return false;
    }
}
