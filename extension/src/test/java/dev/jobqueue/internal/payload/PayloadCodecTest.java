package dev.jobqueue.internal.payload;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.internal.fixtures.LogCapture;
import jakarta.json.bind.JsonbException;
import java.util.List;
import org.junit.jupiter.api.Test;

class PayloadCodecTest {

    /** A payload whose getter throws, as one with a lazy field whose session is gone does. */
    public static class Unreadable {
        public String getName() {
            throw new IllegalStateException("no session");
        }
    }

    @Test
    void a_payload_json_b_cannot_serialise_throws_and_json_b_logs_nothing() {
        try (LogCapture yasson = new LogCapture("org.eclipse.yasson")) {
            JsonbException error = assertThrows(JsonbException.class, () -> new PayloadCodec().toJson(new Unreadable()));
            assertTrue(error.getMessage().contains("name"), error.getMessage());
            assertEquals(List.of(), yasson.messages());
        }
    }

    @Test
    void a_payload_round_trips_through_json() {
        PayloadCodec codec = new PayloadCodec();

        assertEquals(List.of("a", "b"), codec.fromJson(codec.toJson(List.of("a", "b")), List.class));
    }

    @Test
    void the_size_is_counted_in_utf8_bytes_as_the_database_stores_it() {
        String text = "{\"name\":\"Zoë 東京 😀\",\"n\":" + "x".repeat(100) + "}";

        assertEquals(text.getBytes(UTF_8).length, PayloadCodec.utf8Size(text, 10));
    }

    @Test
    void text_that_fits_whatever_its_characters_is_not_counted_past_the_limit() {
        String text = "東".repeat(1000);

        assertTrue(PayloadCodec.utf8Size(text, 3000) <= 3000);
        assertEquals(3000, PayloadCodec.utf8Size(text, 2999));
    }
}
