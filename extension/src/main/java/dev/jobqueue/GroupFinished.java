package dev.jobqueue;

import java.time.Instant;

/**
 * A CDI event fired once when the last unfinished job of a group becomes DONE, FAILED or CANCELLED, on the node that
 * finished it, after that transaction committed: {@code void onBatch(@Observes GroupFinished finished)}.
 * If jobs are added to the group later, it fires again when they are finished too. DONE jobs that retention
 * already deleted are not counted.
 *
 * @param group      the group
 * @param done       its DONE jobs
 * @param failed     its FAILED jobs
 * @param cancelled  its CANCELLED jobs
 * @param finishedAt when its last job finished
 */
public record GroupFinished(String group, long done, long failed, long cancelled, Instant finishedAt) {
}
