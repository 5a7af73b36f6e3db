package dev.jobqueue.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SwitchesTest {

    @Test
    void true_and_false_are_read_in_any_case_with_spaces_around_ignored() {
        assertTrue(Switches.parse("true"));
        assertTrue(Switches.parse(" TRUE "));
        assertFalse(Switches.parse("False"));
    }

    @Test
    void every_other_spelling_is_refused_rather_than_read_as_false() {
        for (String text : List.of("yes", "no", "on", "off", "1", "0", "y", "ture", "")) {
            IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> Switches.parse(text));
            assertEquals("expected true or false", error.getMessage(), text);
        }
    }
}
