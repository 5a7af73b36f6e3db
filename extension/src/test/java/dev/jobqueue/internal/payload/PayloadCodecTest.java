package dev.jobqueue.internal.payload;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PayloadCodecTest {

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
