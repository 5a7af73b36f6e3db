package dev.jobqueue.internal.store;

/**
 * What a retry of FAILED jobs did: how many it made PENDING (or WAITING, behind an unfinished job), and how many
 * of the jobs it was given it passed over, and why.
 *
 * @param retried          the jobs it retried
 * @param dependencyFailed the FAILED jobs it passed over because a job they wait for is FAILED: they would wait
 *                         for ever (JQ081)
 * @param dedupeKeyHeld    the FAILED jobs it passed over because another unfinished job now holds their dedupe key
 * @param notFailed        the jobs it was given that are not FAILED, or no longer exist
 */
public record RetryOutcome(int retried, int dependencyFailed, int dedupeKeyHeld, int notFailed) {

    static final RetryOutcome NONE = new RetryOutcome(0, 0, 0, 0);

    /** How many it passed over. */
    public int skipped() {
        return dependencyFailed + dedupeKeyHeld + notFailed;
    }

    RetryOutcome plus(RetryOutcome other) {
        return new RetryOutcome(retried + other.retried, dependencyFailed + other.dependencyFailed,
                dedupeKeyHeld + other.dedupeKeyHeld, notFailed + other.notFailed);
    }
}
