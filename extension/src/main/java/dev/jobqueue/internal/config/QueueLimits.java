package dev.jobqueue.internal.config;

/**
 * A queue's cluster-wide limits: how many of its jobs may start per period ({@code rate-limit}) and how many may be
 * RUNNING at once ({@code max-running}), on all nodes together. An admin may override either at run time; the
 * override, kept in the queue's row, beats the configuration on every node.
 *
 * @param rate       the rate limit, or null for none
 * @param maxRunning the most jobs RUNNING at once, or 0 for no limit
 */
public record QueueLimits(RateLimit rate, int maxRunning) {

    /** The text an override holds for "no limit", whatever the configuration says. */
    public static final String NONE = "none";

    private static final QueueLimits UNLIMITED = new QueueLimits(null, 0);

    public QueueLimits {
        if (maxRunning < 0) {
            throw new IllegalArgumentException("max-running must not be negative");
        }
    }

    public static QueueLimits none() {
        return UNLIMITED;
    }

    /** Whether either limit is set. */
    public boolean any() {
        return rate != null || maxRunning > 0;
    }

    /**
     * These limits with an admin's overrides applied.
     *
     * @param rateOverride       a rate limit's text, {@link #NONE}, or null to keep this rate limit
     * @param maxRunningOverride a positive limit, 0 for none, or null to keep this one
     * @throws IllegalArgumentException if the rate override is neither a rate limit nor {@link #NONE}
     */
    public QueueLimits overriddenBy(String rateOverride, Integer maxRunningOverride) {
        RateLimit effectiveRate = rateOverride == null ? rate
                : NONE.equals(rateOverride) ? null : RateLimit.parse(rateOverride);
        int effectiveMaxRunning = maxRunningOverride == null ? maxRunning : maxRunningOverride;
        return new QueueLimits(effectiveRate, effectiveMaxRunning);
    }
}
