package dev.jobqueue.test;

import dev.jobqueue.JobId;
import java.time.Instant;

/**
 * What a drain did with one job.
 *
 * @param id        the job
 * @param outcome   what became of it
 * @param attempts  the attempts it has made
 * @param error     the error of the attempt when it failed (RETRIED or FAILED); null when DONE
 * @param nextRunAt for {@link Outcome#RETRIED}, when it runs again; null otherwise
 */
public record DrainedJob(JobId id, Outcome outcome, int attempts, String error, Instant nextRunAt) {

    /** What became of a job that a drain ran. */
    public enum Outcome {
        /** It succeeded: it is DONE, or deleted at once because its queue retains no DONE jobs. */
        DONE,
        /**
         * Its attempt failed, and it waits for its next one; or its consumer told the queue to back off
         * ({@code QueueBackoffException}), and it waits for the backoff's end with its attempt not counted.
         */
        RETRIED,
        /** It gave up: it is FAILED, a dead letter. */
        FAILED
    }
}
