package dev.jobqueue.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SizesTest {

    @Test
    void sizes_are_bytes_or_binary_units() {
        assertEquals(1_048_576, Sizes.parse("1048576"));
        assertEquals(512 * 1024, Sizes.parse("512KiB"));
        assertEquals(1 << 20, Sizes.parse(" 1MiB "));
        assertEquals(1L << 30, Sizes.parse("1GiB"));
        assertEquals(10, Sizes.parse("10B"));
    }

    @Test
    void zero_negative_huge_and_unknown_sizes_are_refused() {
        for (String bad : new String[] {"0", "-1", "2GiB", "99999999999", "9999999999GiB", "1MB", "1 mib", "big", ""}) {
            IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> Sizes.parse(bad), bad);
            assertTrue(error.getMessage().contains("1MiB") || error.getMessage().contains("1GiB"), error.getMessage());
        }
    }
}
