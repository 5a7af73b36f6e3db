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
}
