package dev.jobqueue.internal.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class JobFilterTest {

    @Test
    void only_the_given_fields_filter_and_the_state_is_a_literal_for_partial_indexes() {
        JobFilter filter = new JobFilter("email", JobState.FAILED, null, "order-7", null, "import-1");

        assertEquals("state = 'FAILED' AND queue = ? AND dedupe_key = ? AND group_name = ?", filter.where());
    }

    @Test
    void no_field_matches_every_job() {
        assertEquals("1 = 1", new JobFilter(null, null, null, null, null, null).where());
    }

    @Test
    void failed_keeps_every_other_field() {
        JobFilter filter = new JobFilter("email", JobState.DONE, "id-1", "k", "o", "g");

        assertEquals(new JobFilter("email", JobState.FAILED, "id-1", "k", "o", "g"), filter.failed());
    }
}
