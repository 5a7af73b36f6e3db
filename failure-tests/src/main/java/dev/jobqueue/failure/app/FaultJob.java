package dev.jobqueue.failure.app;

/**
 * A job of the random-fault scenario: which part of the workload it belongs to, and how its consumer behaves.
 *
 * @param kind          the part of the workload that put it, for the report: tx, long, rollback, plain, keyed,
 *                      ordered, group, chain or after
 * @param n             the job's number, unique within a run
 * @param millis        how long the consumer works before it writes its effect
 * @param rollbackFirst whether the consumer marks its transaction rollback-only on attempt 1, and returns normally
 */
public record FaultJob(String kind, int n, int millis, boolean rollbackFirst) {
}
