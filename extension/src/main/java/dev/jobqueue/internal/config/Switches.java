package dev.jobqueue.internal.config;

/**
 * Reads every on/off key, of the node, a queue or a schedule, by one rule: {@code true} or {@code false}, in any
 * case, with spaces around ignored. Anything else is refused rather than read as false.
 */
public final class Switches {

    private Switches() {
    }

    /** @throws IllegalArgumentException saying what is expected, for any other text */
    public static boolean parse(String text) {
        String word = text.strip();
        if (word.equalsIgnoreCase("true")) {
            return true;
        }
        if (word.equalsIgnoreCase("false")) {
            return false;
        }
        throw new IllegalArgumentException("expected true or false");
    }
}
