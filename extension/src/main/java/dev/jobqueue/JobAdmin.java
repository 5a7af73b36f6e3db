package dev.jobqueue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Operates the queues: see what is waiting and what failed, replay or purge dead letters, pause a queue.
 * Inject it with {@code @Inject JobAdmin admin;}. The REST resource at {@code /jobqueue/admin} offers the
 * same operations to users in the {@code jobqueue-admin} role. Queue names and ids are validated;
 * a bad one throws {@link IllegalArgumentException}.
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

    /** One job with its payload and the error of every failed attempt, or empty if there is none. */
    Optional<JobDetails> job(JobId id);

    /**
     * Makes a FAILED job PENDING again with a fresh set of attempts, or WAITING if a job it waits for is not
     * DONE. False if it is not FAILED, or if its dedupe key is now held by another unfinished job.
     */
    boolean retry(JobId id);

    /** Retries every FAILED job of a queue. Returns how many. */
    int retryFailed(String queue);

    /**
     * Deletes a job in any state but RUNNING. Jobs that wait for it no longer do. False if there was none to
     * delete.
     */
    boolean delete(JobId id);

    /** Deletes the queue's FAILED jobs that failed more than {@code olderThan} ago. Returns how many. */
    int purgeFailed(String queue, Duration olderThan);

    /** Stops every node from claiming the queue's jobs; running jobs finish. Puts still succeed. */
    void pause(String queue);

    /** Lets every node claim the queue's jobs again. */
    void resume(String queue);

    /**
     * How far the jobs put with {@link JobOptions#group(String)} have come. All counts are 0 for an unknown
     * group. DONE jobs that retention deleted are not counted.
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
     * @param failed  dead letters
     * @param paused  whether the queue is paused cluster-wide
     */
    record QueueStats(String queue, long waiting, long pending, long running, long done, long failed, boolean paused) {
    }

    /**
     * A job as listed.
     *
     * @param id         the job
     * @param queue      its queue
     * @param state      WAITING, PENDING, RUNNING, DONE or FAILED
     * @param attempts   attempts made
     * @param createdAt  when it was put
     * @param runAt      when it is or was due
     * @param finishedAt when it became DONE or FAILED, or null
     * @param lastError  the last error, or null
     */
    record JobSummary(JobId id, String queue, String state, int attempts, Instant createdAt, Instant runAt,
            Instant finishedAt, String lastError) {
    }

    /**
     * A job with everything known about it.
     *
     * @param summary the job as listed
     * @param payload its JSON payload
     * @param errors  the error of every failed attempt, oldest first
     */
    record JobDetails(JobSummary summary, String payload, List<AttemptError> errors) {
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
     * @param failed  FAILED jobs
     */
    record GroupProgress(String group, long waiting, long pending, long running, long done, long failed) {

        /** Every job of the group. */
        public long total() {
            return waiting + pending + running + done + failed;
        }

        /** True once the group has jobs and none is unfinished. */
        public boolean finished() {
            return total() > 0 && waiting + pending + running == 0;
        }
    }
}
