package dev.jobqueue.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SafeTextTest {

    @Test
    void an_operator_action_from_a_forged_filter_stays_one_line_and_says_who_did_it() {
        String forged = "FAILED jobs where dedupeKey=x\r\nJQ087: eve did delete-matching on all jobs: 0 changed";
        String line = Messages.operatorAction("mallory", "retry-matching", forged, 1);
        assertFalse(line.contains("\n") || line.contains("\r"), line);
        assertTrue(line.startsWith("JQ087: mallory did retry-matching on FAILED jobs where dedupeKey=x\\r\\nJQ087: eve"),
                line);
    }

    @Test
    void control_characters_are_written_as_escapes_and_printable_text_is_kept() {
        assertEquals("a\\u0000b\\tc\\u001b[31m\\u2028é日本", SafeText.of("a\0b\tc\u001b[31m\u2028é日本"));
        assertEquals("null", SafeText.of(null));
    }

    @Test
    void a_long_value_is_cut_and_says_how_long_it_was() {
        String shown = SafeText.of("x".repeat(10_000));
        assertEquals("x".repeat(SafeText.MAX_SHOWN) + "... (10000 characters)", shown);
    }

    @Test
    void every_admin_refusal_has_a_code_to_look_up() {
        assertEquals("JQ070", Messages.codeOf(Messages.badParameter("size must be a whole number")));
        assertEquals("JQ079", Messages.codeOf("no code at all"));
        assertEquals("JQ079", Messages.codeOf(null));
    }
}
