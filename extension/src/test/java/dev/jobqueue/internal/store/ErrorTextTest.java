package dev.jobqueue.internal.store;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ErrorTextTest {

    @Test
    void the_text_starts_with_the_exception_and_its_message_and_carries_the_stack_trace() {
        String text = ErrorText.of(new IllegalStateException("payment refused"));

        assertTrue(text.startsWith("java.lang.IllegalStateException: payment refused"), text);
        assertTrue(text.contains("at dev.jobqueue.internal.store.ErrorTextTest."), text);
    }

    @Test
    void nul_characters_are_removed_from_the_message_and_from_its_causes() {
        RuntimeException cause = new RuntimeException("cause\0\0 too");
        IllegalStateException error = new IllegalStateException("bad \0byte", cause);
        // Short traces, so that the cause is within the length kept.
        cause.setStackTrace(new StackTraceElement[0]);
        error.setStackTrace(new StackTraceElement[0]);

        String text = ErrorText.of(error);

        assertFalse(text.contains("\0"), text);
        assertTrue(text.startsWith("java.lang.IllegalStateException: bad byte"), text);
        assertTrue(text.contains("Caused by: java.lang.RuntimeException: cause too"), text);
    }

    @Test
    void a_long_trace_is_truncated_to_the_limit() {
        String text = ErrorText.of(new IllegalStateException("x".repeat(10_000)));

        assertTrue(text.length() <= ErrorText.MAX_LENGTH, "length " + text.length());
        assertTrue(text.endsWith("\n\t... truncated"), text.substring(text.length() - 40));
    }
}
