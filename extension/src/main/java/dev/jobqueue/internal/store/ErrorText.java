package dev.jobqueue.internal.store;

import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * Turns a consumer's exception into the text kept on the job row: the message, then a truncated stack trace.
 * NUL characters are removed: PostgreSQL cannot store them in text, and the failure could not be recorded.
 */
public final class ErrorText {

    static final int MAX_LENGTH = 4000;

    private ErrorText() {
    }

    public static String of(Throwable error) {
        StringWriter trace = new StringWriter();
        error.printStackTrace(new PrintWriter(trace));
        String text = trace.toString().replace("\0", "");
        return text.length() <= MAX_LENGTH ? text : text.substring(0, MAX_LENGTH - 16) + "\n\t... truncated";
    }
}
