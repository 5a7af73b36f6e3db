package dev.jobqueue;

/**
 * What a recurring schedule does with occurrences it missed, because no node was running or the database was
 * down at their time. An occurrence counts as missed when it is found later than the schedule's
 * {@code missed-after} (1 minute by default) after its time.
 */
public enum MissedOccurrences {
    /** Missed occurrences are skipped; the schedule goes on with the next one. */
    SKIP,
    /** One job is put for the latest missed occurrence, unless an occurrence on time runs anyway. The default. */
    ONCE,
    /** A job is put for each missed occurrence, oldest first, up to the schedule's {@code catch-up-limit}. */
    ALL
}
