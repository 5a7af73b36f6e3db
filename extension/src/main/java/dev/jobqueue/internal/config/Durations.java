package dev.jobqueue.internal.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses durations written as ISO-8601 ({@code PT10S}) or in the short form {@code 500ms}, {@code 10s}, {@code 5m}, {@code 2h}, {@code 1d}. */
public final class Durations {

    private static final Pattern SHORT = Pattern.compile("(\\d+)(ms|s|m|h|d)");

    private Durations() {
    }

    /** @throws IllegalArgumentException naming the accepted forms, if the text is neither form or is negative */
    public static Duration parse(String text) {
        String trimmed = text.trim();
        Matcher m = SHORT.matcher(trimmed);
        if (m.matches()) {
            long amount = Long.parseLong(m.group(1));
            return switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                case "m" -> Duration.ofMinutes(amount);
                case "h" -> Duration.ofHours(amount);
                default -> Duration.ofDays(amount);
            };
        }
        try {
            Duration parsed = Duration.parse(trimmed);
            if (parsed.isNegative()) {
                throw new IllegalArgumentException("a duration must not be negative");
            }
            return parsed;
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("expected a duration such as 500ms, 10s, 5m, 2h, 1d or PT10S");
        }
    }
}
