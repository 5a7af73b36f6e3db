/**
 * jobqueue's public API: a durable job queue for Jakarta EE, written in the caller's own JTA transaction.
 *
 * <ul>
 *   <li>{@link dev.jobqueue.JobQueue} puts a job, with {@link dev.jobqueue.JobOptions}; the job exists if and
 *       only if the caller's transaction commits.</li>
 *   <li>{@link dev.jobqueue.Consumer} marks the method that runs a queue's jobs; {@link dev.jobqueue.JobContext}
 *       tells it about the attempt.</li>
 *   <li>{@link dev.jobqueue.JobAdmin} lists, retries, purges and pauses, for operators.</li>
 *   <li>The events ({@link dev.jobqueue.JobFailed}, {@link dev.jobqueue.JobRetried},
 *       {@link dev.jobqueue.LeaseRescued}, {@link dev.jobqueue.GroupFinished}) are CDI events to observe.</li>
 * </ul>
 *
 * Nothing in this package depends on {@code dev.jobqueue.internal}, which is not API and may change.
 */
package dev.jobqueue;
