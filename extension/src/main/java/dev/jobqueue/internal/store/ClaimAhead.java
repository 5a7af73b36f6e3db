package dev.jobqueue.internal.store;

import dev.jobqueue.internal.config.RateLimit;
import java.time.Duration;
import java.time.temporal.ChronoUnit;

/**
 * How far a claim under a queue's limits may take jobs ahead of its runners. The first {@code atOnce} jobs start as
 * soon as the claim commits; under a rate limit alone, those beyond them may wait for a runner up to
 * {@code within}, and the window of starts counts them at the claim's time plus that. A job that finds no runner
 * in time is handed back, so that no period sees more starts than the limit allows.
 *
 * @param atOnce how many jobs runners are free for now
 * @param within how long the runners will take to start the rest, or zero to claim none ahead
 */
public record ClaimAhead(int atOnce, Duration within) {

    /**
     * The longest a job claimed ahead under {@code rate} may wait for a runner: a tenth of its period, in the
     * window's milliseconds. Counted that much later than they may start, such jobs hold their permits that much
     * longer than they needed: while the limit binds, a period may see up to a tenth fewer starts than it allows.
     */
    public static Duration longestWait(RateLimit rate) {
        return rate.period().dividedBy(10).truncatedTo(ChronoUnit.MILLIS);
    }

    public ClaimAhead {
        if (atOnce < 0 || within.isNegative()) {
            throw new IllegalArgumentException("a claim ahead needs a count and a time of at least zero");
        }
    }
}
