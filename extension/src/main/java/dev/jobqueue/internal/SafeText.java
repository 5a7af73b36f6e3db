package dev.jobqueue.internal;

/**
 * Text from a request, made safe to log or to echo in an error: control characters (CR and LF among them, which
 * would start a forged log line) are written as {@code \n}, {@code \u0000} and so on, and a long value is cut.
 */
public final class SafeText {

    /** How many characters of a value an error message or a log line shows. */
    static final int MAX_SHOWN = 200;

    private SafeText() {
    }

    /** {@code value} with its control characters escaped and cut to {@value #MAX_SHOWN} characters; "null" for null. */
    public static String of(String value) {
        return of(value, MAX_SHOWN);
    }

    /** {@code value} with its control characters escaped and cut to {@code max} characters; "null" for null. */
    public static String of(String value, int max) {
        if (value == null) {
            return "null";
        }
        int end = Math.min(value.length(), max);
        StringBuilder safe = new StringBuilder(end + 16);
        for (int i = 0; i < end; i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\n' -> safe.append("\\n");
                case '\r' -> safe.append("\\r");
                case '\t' -> safe.append("\\t");
                case '\\' -> safe.append("\\\\");
                default -> {
                    if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029' || Character.isSurrogate(c)
                            && !validSurrogateAt(value, i)) {
                        safe.append(String.format("\\u%04x", (int) c));
                    } else {
                        safe.append(c);
                    }
                }
            }
        }
        if (value.length() > max) {
            safe.append("... (").append(value.length()).append(" characters)");
        }
        return safe.toString();
    }

    /** Whether the surrogate at {@code i} is half of a well-formed pair. */
    private static boolean validSurrogateAt(String value, int i) {
        char c = value.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1));
        }
        return i > 0 && Character.isHighSurrogate(value.charAt(i - 1));
    }
}
