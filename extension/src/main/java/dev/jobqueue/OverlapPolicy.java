package dev.jobqueue;

/** Whether a recurring schedule puts an occurrence while its previous occurrence's job has not finished. */
public enum OverlapPolicy {
    /** Put it anyway: occurrences may run side by side, as the queue's concurrency allows. */
    ALLOW,
    /** Skip it, and fire {@link OccurrencesSkipped}: at most one occurrence is unfinished at a time. The default. */
    SKIP
}
