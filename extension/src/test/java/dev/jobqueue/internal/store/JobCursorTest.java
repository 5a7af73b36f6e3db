package dev.jobqueue.internal.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class JobCursorTest {

    @Test
    void a_token_reads_back_as_the_same_row_to_the_nanosecond() {
        JobCursor cursor = new JobCursor(1_234_567L, Instant.parse("2026-11-24T15:04:05.123456789Z"));

        assertEquals(cursor, JobCursor.parse(cursor.token()));
        assertTrue(cursor.token().matches("[A-Za-z0-9_-]+"), "safe in a URL as it is: " + cursor.token());
    }

    @Test
    void a_token_not_made_by_a_listing_is_refused_with_its_text() {
        for (String bad : new String[] {"", "not base64!", "MTIz", "YS5iLmM"}) {
            IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> JobCursor.parse(bad));
            assertTrue(error.getMessage().contains("'" + bad + "' is not a page token"), error.getMessage());
        }
    }

    @Test
    void a_tampered_token_with_a_time_no_database_can_store_is_refused() {
        for (String plain : new String[] {"1.999999999999.0", "1.-99999999999.0", "1.31556889864403199.0",
            "9223372036854775807.1.1999999999", "1.1.-5"}) {
            String token = Base64.getUrlEncoder().withoutPadding().encodeToString(plain.getBytes(StandardCharsets.US_ASCII));
            IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> JobCursor.parse(token),
                    plain);
            assertTrue(error.getMessage().contains("is not a page token"), error.getMessage());
        }
    }

    @Test
    void due_order_reads_its_index_as_one_range_where_the_database_can() {
        JobCursor cursor = new JobCursor(7, Instant.EPOCH);

        assertEquals("seq < ?", cursor.after(JobSort.PUT, Database.POSTGRESQL));
        assertEquals("(run_at, seq) > (?, ?)", cursor.after(JobSort.DUE, Database.POSTGRESQL));
        assertEquals("(run_at, seq) > (?, ?)", cursor.after(JobSort.DUE, Database.H2));
        assertEquals("(run_at > ? OR (run_at = ? AND seq > ?))", cursor.after(JobSort.DUE, Database.MARIADB));
    }
}
