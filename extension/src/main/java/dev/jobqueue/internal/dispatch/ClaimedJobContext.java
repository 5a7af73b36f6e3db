package dev.jobqueue.internal.dispatch;

import dev.jobqueue.JobContext;
import dev.jobqueue.JobId;
import java.time.Instant;

/** The {@link JobContext} handed to a consumer. */
record ClaimedJobContext(JobId id, String queue, int attempt, Instant enqueuedAt) implements JobContext {
}
