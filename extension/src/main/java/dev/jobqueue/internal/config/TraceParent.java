package dev.jobqueue.internal.config;

import java.util.Locale;

/**
 * A queue's {@code trace-parent}: how the span of a consumer call relates to the span that put the job, when the
 * server traces with OpenTelemetry.
 */
public enum TraceParent {
    /** The first attempt is a child of the putting span; a retry starts a new trace with a link to it. The default. */
    CHILD,
    /** Every attempt starts a new trace with a link to the putting span. */
    LINK,
    /** Every attempt starts a new trace, unrelated to the put. */
    NONE;

    /**
     * @throws IllegalArgumentException saying what is expected, for any other text
     */
    static TraceParent parse(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "child" -> CHILD;
            case "link" -> LINK;
            case "none" -> NONE;
            default -> throw new IllegalArgumentException("expected child, link or none");
        };
    }
}
