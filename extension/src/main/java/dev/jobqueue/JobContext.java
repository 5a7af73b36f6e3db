package dev.jobqueue;

import java.time.Instant;

/**
 * What a consumer may know about the job it is running. Declare it as the second parameter of a
 * {@link Consumer} method.
 */
public interface JobContext {

    /** The job's id, as returned by {@link JobQueue#put}. */
    JobId id();

    /** The queue the job was put on. */
    String queue();

    /** The attempt now running, starting at 1. */
    int attempt();

    /** When the job was put. */
    Instant enqueuedAt();

    /** The longest note {@link #progress} takes, in characters. */
    int MAX_PROGRESS_NOTE = 200;

    /**
     * Tells how far the job has come, for the admin API and the dashboard: a fraction from 0 to 1 and a note such
     * as "row 4,000 of 10,000". It is written outside the job's transaction, so a rollback does not hide it, and
     * at most once a second per job, the latest report then; calling it often is cheap. A retry shows none until
     * it reports.
     *
     * @param fraction from 0 to 1
     * @param note     at most {@value #MAX_PROGRESS_NOTE} characters, or null
     * @throws IllegalArgumentException naming the value, if either is out of bounds
     */
    void progress(double fraction, String note);
}
