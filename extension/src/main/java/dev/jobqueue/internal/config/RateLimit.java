package dev.jobqueue.internal.config;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A queue's {@code rate-limit}: at most {@code permits} of its jobs start in any window of one {@code period}, on
 * all nodes together. Written {@code 50/1s}, {@code 1000/1m} or {@code 5/PT10S}.
 *
 * @param permits how many starts a period allows, at least 1
 * @param period  the length of the sliding window, at least a millisecond
 */
public record RateLimit(int permits, Duration period) {

    private static final Pattern FORM = Pattern.compile("\\s*(\\d+)\\s*/\\s*(\\S+)\\s*");

    public RateLimit {
        if (permits < 1) {
            throw new IllegalArgumentException("a rate limit must allow at least 1 start per period");
        }
        if (period.toMillis() < 1) {
            throw new IllegalArgumentException("a rate limit's period must be at least 1ms");
        }
    }

    /**
     * @throws IllegalArgumentException saying what is expected, for any other text
     */
    public static RateLimit parse(String text) {
        Matcher m = FORM.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("expected starts per period, such as 50/1s or 1000/1m");
        }
        int permits;
        try {
            permits = Integer.parseInt(m.group(1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("the number of starts must be at most " + Integer.MAX_VALUE);
        }
        return new RateLimit(permits, Durations.parse(m.group(2)));
    }

    /** The form {@link #parse} reads, with the period in the short form where it has one. */
    @Override
    public String toString() {
        return permits + "/" + Durations.format(period);
    }
}
