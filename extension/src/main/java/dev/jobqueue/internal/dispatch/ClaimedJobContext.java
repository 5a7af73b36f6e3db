package dev.jobqueue.internal.dispatch;

import dev.jobqueue.JobContext;
import dev.jobqueue.JobId;
import java.time.Instant;

/** The {@link JobContext} handed to a consumer; its progress reports go to the node's {@link ProgressLog}. */
final class ClaimedJobContext implements JobContext {

    private final JobId id;
    private final String queue;
    private final int attempt;
    private final Instant enqueuedAt;
    private final ProgressLog progress;

    ClaimedJobContext(JobId id, String queue, int attempt, Instant enqueuedAt, ProgressLog progress) {
        this.id = id;
        this.queue = queue;
        this.attempt = attempt;
        this.enqueuedAt = enqueuedAt;
        this.progress = progress;
    }

    @Override
    public JobId id() {
        return id;
    }

    @Override
    public String queue() {
        return queue;
    }

    @Override
    public int attempt() {
        return attempt;
    }

    @Override
    public Instant enqueuedAt() {
        return enqueuedAt;
    }

    @Override
    public void progress(double fraction, String note) {
        if (!(fraction >= 0 && fraction <= 1)) {
            throw new IllegalArgumentException("jobqueue: progress must be a fraction from 0 to 1, was " + fraction);
        }
        if (note != null && note.length() > MAX_PROGRESS_NOTE) {
            throw new IllegalArgumentException("jobqueue: a progress note has at most " + MAX_PROGRESS_NOTE
                    + " characters, this one " + note.length());
        }
        progress.report(id.toString(), attempt, fraction, note);
    }

    @Override
    public String toString() {
        return "JobContext[id=" + id + ", queue=" + queue + ", attempt=" + attempt + "]";
    }
}
