package dev.jobqueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class JobOptionsTest {

    private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");

    @Test
    void each_setter_returns_a_new_value_and_leaves_the_original_as_it_was() {
        JobOptions base = JobOptions.defaults().priority(5);
        JobOptions keyed = base.key("order-42", DuplicatePolicy.REPLACE).delay(Duration.ofMinutes(5));

        assertEquals(Optional.empty(), base.key());
        assertEquals(NOW, base.dueAt(NOW));
        assertEquals(Optional.of("order-42"), keyed.key());
        assertEquals(DuplicatePolicy.REPLACE, keyed.onDuplicate());
        assertEquals(5, keyed.priority());
        assertEquals(NOW.plusSeconds(300), keyed.dueAt(NOW));
    }

    @Test
    void run_at_and_delay_replace_each_other_and_dependencies_accumulate() {
        Instant later = NOW.plusSeconds(3600);
        JobId first = JobId.random();
        JobId second = JobId.random();
        JobOptions options = JobOptions.defaults().delay(Duration.ofMinutes(5)).runAt(later).after(first)
                .after(second, first);

        assertEquals(later, options.dueAt(NOW));
        assertEquals(NOW.plusSeconds(60), options.delay(Duration.ofMinutes(1)).dueAt(NOW));
        assertEquals(Set.of(first, second), options.after());
    }

    @Test
    void bad_values_are_refused_with_a_message_naming_the_problem() {
        assertMessage("priority must be between -100 and 100, was 101", () -> JobOptions.defaults().priority(101));
        assertMessage("key must be 1 to 200 characters", () -> JobOptions.defaults().key(" "));
        assertMessage("orderingKey must be 1 to 200 characters",
                () -> JobOptions.defaults().orderingKey("x".repeat(201)));
        assertMessage("delay must not be negative", () -> JobOptions.defaults().delay(Duration.ofSeconds(-1)));
        assertThrows(NullPointerException.class, () -> JobOptions.defaults().after((JobId) null));
    }

    @Test
    void a_nul_character_in_a_key_an_ordering_key_or_a_group_is_refused_naming_the_option() {
        assertMessage("key must not contain the NUL character (\\u0000), was \"a\\u0000b\"",
                () -> JobOptions.defaults().key("a\0b"));
        assertMessage("key must not contain the NUL character",
                () -> JobOptions.defaults().key("\0", DuplicatePolicy.REPLACE));
        assertMessage("orderingKey must not contain the NUL character",
                () -> JobOptions.defaults().orderingKey("customer-1\0"));
        assertMessage("group must not contain the NUL character", () -> JobOptions.defaults().group("\0batch"));
    }

    private static void assertMessage(String expected, Runnable call) {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, call::run);
        assertTrue(error.getMessage().contains(expected), error.getMessage());
    }
}
