package dev.jobqueue.internal.admin;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RequestTargetFilterTest {

    @Test
    void plain_and_well_encoded_targets_pass() {
        for (String raw : new String[] {null, "", "/app/jobqueue/admin/jobs", "queue=email&dedupeKey=a%20b",
            "group=%E6%97%A5%E6%9C%AC", "key=%F0%9F%98%80", "size=%00", "x=%0D%0A"}) {
            assertTrue(RequestTargetFilter.wellFormed(raw), raw);
        }
    }

    @Test
    void broken_percent_encoding_or_bytes_that_are_not_utf8_are_refused() {
        for (String raw : new String[] {"%", "a=%z", "a=%zz", "a=%4", "a=%C3%28", "a=%FF%FE", "a=%ED%A0%80",
            "a=%E0%80%80", "a=%C3"}) {
            assertFalse(RequestTargetFilter.wellFormed(raw), raw);
        }
    }
}
