package dev.jobqueue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Operates the queues: see what is waiting and what failed, replay or purge dead letters, pause a queue.
 * Inject it with {@code @Inject JobAdmin admin;}. The REST resource at {@code /jobqueue/admin} offers the
 * same operations to users in the {@code jobqueue-admin} role; a request there that changes something must carry
 * the header {@code X-Requested-By}. Queue names, ids and group names are validated; a bad one throws
 * {@link IllegalArgumentException}.
 */
public interface JobAdmin {

    /** Every queue that has jobs or a pause switch, with its counts by state. */
    List<QueueStats> queues();

    /**
     * FAILED jobs, newest first.
     *
     * @param queue the queue, or null for every queue
     * @param page  the page, from 0
     * @param size  jobs per page, 1 to 500
     */
    List<JobSummary> failed(String queue, int page, int size);

    /**
     * One job with its whole payload and the first {@value #ERRORS_SHOWN} of its kept errors, or empty if there is
     * none. jobqueue keeps the first 5 and the last 20 errors of each job.
     */
    Optional<JobDetails> job(JobId id);

    /**
     * One job as {@link #job(JobId)} gives it, but with at most the first {@code maxPayloadChars} characters of its
     * payload; {@link JobDetails#payloadTruncated()} says whether it was cut. Only those characters are read from
     * the database.
     *
     * @param maxPayloadChars 0 or more
     */
    Optional<JobDetails> job(JobId id, int maxPayloadChars);

    /**
     * A page of a job's kept errors, oldest first; empty past the last page or for an unknown job.
     *
     * @param page the page, from 0
     * @param size errors per page, 1 to 500
     */
    List<AttemptError> errors(JobId id, int page, int size);

    /** How many errors {@link JobDetails#errors()} holds at most. */
    int ERRORS_SHOWN = 25;

    /**
     * Makes a FAILED or CANCELLED job PENDING again with a fresh set of attempts, or WAITING if a job it waits for
     * is not DONE. False if it is neither, or if its dedupe key is now held by another unfinished job.
     *
     * @throws IllegalStateException naming the dependency, with nothing changed, if a job it waits for is FAILED
     *                               or CANCELLED: it would wait forever. Retry that job first, or delete it.
     */
    boolean retry(JobId id);

    /**
     * Cancels a job that has not started: a PENDING or WAITING job becomes CANCELLED, and frees its dedupe key and
     * its place in its ordering key; the jobs that wait for it become FAILED (JQ095), and a group counts it as
     * finished. {@link JobCancelled} fires after the commit. A CANCELLED job is kept like a FAILED one, and can be
     * retried or deleted like one.
     *
     * @return what it did; a RUNNING or finished job is left as it is
     */
    CancelOutcome cancel(JobId id);

    /** Retries every FAILED job of a queue. Returns how many. */
    int retryFailed(String queue);

    /**
     * Deletes a job in any state but RUNNING. Jobs that wait for it no longer do. False if there was none to
     * delete.
     */
    boolean delete(JobId id);

    /**
     * Deletes the queue's FAILED jobs that failed more than {@code olderThan} ago. Returns how many.
     *
     * @param olderThan required, from 0 (every FAILED job of the queue) to 36500 days
     */
    int purgeFailed(String queue, Duration olderThan);

    /**
     * Stops every node from claiming the queue's jobs; running jobs finish. Puts still succeed.
     *
     * @throws java.util.NoSuchElementException with nothing changed, if the queue does not exist: no
     *                                          {@link Consumer} in this application consumes it, it has no jobs
     *                                          and it is not paused
     */
    void pause(String queue);

    /**
     * Lets every node claim the queue's jobs again, and ends a backoff its consumer asked for.
     *
     * @throws java.util.NoSuchElementException if the queue does not exist, as for {@link #pause}
     */
    void resume(String queue);

    /**
     * Sets a queue's cluster-wide limits for every node, over their configuration, or gives them back to it. Nodes
     * claiming the queue apply a change at their next claim, and those whose configuration sets no limit for it
     * within 5 seconds.
     *
     * @param rateLimit  starts per period, such as {@code 50/1s}; {@code none} for no limit; or null for the
     *                   configured {@code rate-limit}
     * @param maxRunning the most jobs RUNNING at once on all nodes; 0 for no limit; or null for the configured
     *                   {@code max-running}
     * @throws IllegalArgumentException         naming the value, if either is not valid
     * @throws java.util.NoSuchElementException if the queue does not exist, as for {@link #pause}
     */
    void setLimits(String queue, String rateLimit, Integer maxRunning);

    /** Every recurring schedule, by name, with its next occurrence and its last occurrence's job. */
    List<ScheduleInfo> schedules();

    /**
     * Puts a job for the schedule now, outside its times, with an {@link Occurrence} of now (or the schedule's
     * payload); the schedule's next occurrence stays as it was.
     *
     * @throws java.util.NoSuchElementException if there is no schedule of that name
     */
    JobId triggerSchedule(String name);

    /**
     * Stops the schedule firing on every node; occurrences while it is paused are not put, and not caught up.
     *
     * @throws java.util.NoSuchElementException if there is no schedule of that name
     */
    void pauseSchedule(String name);

    /**
     * Lets a paused schedule fire again, from its first occurrence after now.
     *
     * @throws java.util.NoSuchElementException if there is no schedule of that name
     */
    void resumeSchedule(String name);

    /**
     * How far the jobs put with {@link JobOptions#group(String)} have come. All counts are 0 for an unknown
     * group. DONE jobs that retention deleted are not counted.
     *
     * @throws IllegalArgumentException if the name is not one that {@link JobOptions#group(String)} accepts
     */
    GroupProgress group(String group);

    /**
     * A queue and how many of its jobs are in each state.
     *
     * @param queue   the queue
     * @param waiting jobs waiting for other jobs to be DONE
     * @param pending jobs due now or later
     * @param running jobs running now
     * @param done    DONE jobs still retained
     * @param failed    dead letters
     * @param cancelled jobs an operator cancelled
     * @param paused    whether the queue is paused cluster-wide
     * @param flow      its cluster-wide limits and backoff
     */
    record QueueStats(String queue, long waiting, long pending, long running, long done, long failed, long cancelled,
            boolean paused, FlowControl flow) {
    }

    /**
     * A queue's cluster-wide flow control, as this node sees it: its configuration, with an admin's overrides.
     *
     * @param rateLimit      the rate limit in force, such as {@code 50/1s}, or null for none
     * @param startsInPeriod how many of its jobs started in the last period of the rate limit, on all nodes; 0
     *                       without one
     * @param maxRunning     the most of its jobs RUNNING at once on all nodes, or 0 for no limit
     * @param backoffUntil   the end of a backoff its consumer asked for ({@link QueueBackoffException}), while one
     *                       lasts; null otherwise
     * @param overridden     whether an admin set either limit, rather than the configuration
     */
    record FlowControl(String rateLimit, int startsInPeriod, int maxRunning, Instant backoffUntil,
            boolean overridden) {
    }

    /**
     * A job as listed.
     *
     * @param id         the job
     * @param queue      its queue
     * @param state      WAITING, PENDING, RUNNING, DONE, FAILED or CANCELLED
     * @param attempts   attempts made
     * @param createdAt  when it was put
     * @param runAt      when it is or was due
     * @param finishedAt when it became DONE, FAILED or CANCELLED, or null
     * @param lastError  the error of its last failed attempt while it is PENDING again or FAILED; null for a job
     *                   that has not failed and for a DONE job (its errors stay in {@link JobAdmin#errors})
     */
    record JobSummary(JobId id, String queue, String state, int attempts, Instant createdAt, Instant runAt,
            Instant finishedAt, String lastError) {
    }

    /**
     * A job with everything known about it.
     *
     * @param summary          the job as listed
     * @param payload          its JSON payload, or the beginning of it when {@code payloadTruncated}
     * @param payloadTruncated whether {@code payload} is only the beginning of the payload
     * @param payloadLength    the whole payload's length, in characters
     * @param errors           the first {@value JobAdmin#ERRORS_SHOWN} of its kept errors, oldest first
     * @param errorCount       how many errors it keeps; page through them with {@link JobAdmin#errors}
     * @param progress         what its consumer last reported in its last attempt ({@link JobContext#progress}), or
     *                         null if that attempt reported nothing
     */
    record JobDetails(JobSummary summary, String payload, boolean payloadTruncated, long payloadLength,
            List<AttemptError> errors, long errorCount, Progress progress) {
    }

    /**
     * How far a job had come, as its consumer last reported it ({@link JobContext#progress}).
     *
     * @param fraction   from 0 to 1
     * @param note       the note, or null
     * @param attempt    the attempt that reported it
     * @param reportedAt when it was reported
     */
    record Progress(double fraction, String note, int attempt, Instant reportedAt) {
    }

    /**
     * The error of one failed attempt.
     *
     * @param attempt  the attempt, from 1
     * @param failedAt when it failed
     * @param error    the message and a truncated stack trace
     */
    record AttemptError(int attempt, Instant failedAt, String error) {
    }

    /**
     * A group's jobs by state.
     *
     * @param group   the group
     * @param waiting jobs waiting for other jobs
     * @param pending jobs due now or later
     * @param running jobs running now
     * @param done    DONE jobs still retained
     * @param failed    FAILED jobs
     * @param cancelled CANCELLED jobs
     */
    record GroupProgress(String group, long waiting, long pending, long running, long done, long failed,
            long cancelled) {

        /** Every job of the group. */
        public long total() {
            return waiting + pending + running + done + failed + cancelled;
        }

        /** True once the group has jobs and none is unfinished. */
        public boolean finished() {
            return total() > 0 && waiting + pending + running == 0;
        }
    }
}
