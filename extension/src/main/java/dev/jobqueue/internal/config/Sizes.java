package dev.jobqueue.internal.config;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses sizes in bytes, written as a whole number of bytes ({@code 1048576}) or with a binary unit: {@code 512KiB}, {@code 1MiB}. */
public final class Sizes {

    /** The largest size accepted: a gibibyte, more than a database text column should be asked to hold for a job. */
    public static final long MAX = 1L << 30;

    private static final Pattern SIZE = Pattern.compile("(\\d{1,10})\\s*(B|KiB|MiB|GiB)?");

    private Sizes() {
    }

    /** @throws IllegalArgumentException naming the accepted forms, if the text is neither, or is 0 or over {@link #MAX} */
    public static long parse(String text) {
        Matcher m = SIZE.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("expected a size in bytes such as 1048576, 512KiB or 1MiB");
        }
        long amount = Long.parseLong(m.group(1));
        if (amount > MAX) {
            throw new IllegalArgumentException("must be between 1 byte and 1GiB");
        }
        String unit = m.group(2) == null ? "B" : m.group(2);
        long bytes = switch (unit) {
            case "KiB" -> amount << 10;
            case "MiB" -> amount << 20;
            case "GiB" -> amount << 30;
            default -> amount;
        };
        if (bytes < 1 || bytes > MAX) {
            throw new IllegalArgumentException("must be between 1 byte and 1GiB");
        }
        return bytes;
    }
}
