package dev.jobqueue.internal.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses durations written as ISO-8601 ({@code PT10S}) or in the short form {@code 500ms}, {@code 10s}, {@code 5m},
 * {@code 2h}, {@code 1d}. A duration is at most {@link #MAX}: jobqueue adds durations to and subtracts them from
 * the current time and stores the result in the database, and a longer one would overflow that arithmetic or
 * the databases' timestamp range.
 */
public final class Durations {

    /** The longest duration accepted, 36500 days (about 100 years). */
    public static final Duration MAX = Duration.ofDays(36_500);

    private static final Pattern SHORT = Pattern.compile("(\\d+)(ms|s|m|h|d)");
    private static final String TOO_LONG = "a duration must be at most " + MAX.toDays() + "d (about 100 years)";

    private Durations() {
    }

    /**
     * @throws IllegalArgumentException naming the accepted forms, if the text is neither form, is negative or is
     *                                  longer than {@link #MAX}
     */
    public static Duration parse(String text) {
        String trimmed = text.trim();
        Matcher m = SHORT.matcher(trimmed);
        Duration parsed = m.matches() ? shortForm(m.group(1), m.group(2)) : iso(trimmed);
        if (parsed.isNegative()) {
            throw new IllegalArgumentException("a duration must not be negative");
        }
        if (parsed.compareTo(MAX) > 0) {
            throw new IllegalArgumentException(TOO_LONG);
        }
        return parsed;
    }

    private static Duration shortForm(String digits, String unit) {
        try {
            long amount = Long.parseLong(digits);
            return switch (unit) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                case "m" -> Duration.ofMinutes(amount);
                case "h" -> Duration.ofHours(amount);
                default -> Duration.ofDays(amount);
            };
        } catch (ArithmeticException | NumberFormatException e) {
            // Only digits reach here, so the number is too large for a long, or for a Duration in that unit.
            throw new IllegalArgumentException(TOO_LONG);
        }
    }

    private static Duration iso(String text) {
        try {
            return Duration.parse(text);
        } catch (DateTimeParseException e) {
            if (e.getCause() instanceof ArithmeticException || e.getCause() instanceof NumberFormatException) {
                throw new IllegalArgumentException(TOO_LONG);
            }
            throw new IllegalArgumentException("expected a duration such as 500ms, 10s, 5m, 2h, 1d or PT10S");
        }
    }

    /** Writes a duration in the short form when it is a whole number of one unit, else as ISO-8601. */
    public static String format(Duration duration) {
        long millis = duration.toMillis();
        if (!Duration.ofMillis(millis).equals(duration)) {
            return duration.toString();
        }
        long[] sizes = {86_400_000L, 3_600_000L, 60_000L, 1_000L, 1L};
        String[] units = {"d", "h", "m", "s", "ms"};
        for (int i = 0; i < sizes.length; i++) {
            if (millis != 0 && millis % sizes[i] == 0) {
                return millis / sizes[i] + units[i];
            }
        }
        return "0s";
    }
}
