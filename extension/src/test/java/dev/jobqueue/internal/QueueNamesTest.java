package dev.jobqueue.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class QueueNamesTest {

    @Test
    void a_plain_name_is_valid() {
        assertEquals("order-confirmation.v2_eu", QueueNames.requireValid("order-confirmation.v2_eu"));
    }

    @Test
    void a_name_with_a_nul_character_is_refused_and_the_message_shows_where_it_is() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> QueueNames.requireValid("emails\0"));
        assertTrue(error.getMessage().startsWith("JQ003: invalid queue name 'emails\\u0000'"), error.getMessage());
    }
}
