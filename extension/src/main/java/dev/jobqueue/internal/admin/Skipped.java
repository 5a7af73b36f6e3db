package dev.jobqueue.internal.admin;

import dev.jobqueue.internal.store.RetryOutcome;

/**
 * Why a retry passed jobs over, in its answer.
 *
 * @param dependencyFailed jobs that wait for a FAILED job, and would wait for ever (JQ081): retry or delete that
 *                         job first
 * @param dedupeKeyHeld    jobs whose dedupe key another unfinished job now holds
 * @param notFailed        jobs that are not FAILED, or no longer exist
 */
public record Skipped(int dependencyFailed, int dedupeKeyHeld, int notFailed) {

    static Skipped of(RetryOutcome outcome) {
        return new Skipped(outcome.dependencyFailed(), outcome.dedupeKeyHeld(), outcome.notFailed());
    }
}
