package dev.jobqueue.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ConfigKeyCheckTest {

    private static List<String> problems(Map<String, String> config, Set<String> consumed) {
        return ConfigKeyCheck.problems(config.keySet(), consumed, key -> Optional.ofNullable(config.get(key)));
    }

    @Test
    void queue_names_with_dots_are_split_at_the_longest_known_option() {
        assertEquals(Optional.of(new ConfigKeyCheck.QueueKey("jobqueue.queue.mail.eu.backoff.max", "mail.eu",
                "backoff.max")), ConfigKeyCheck.parse("jobqueue.queue.mail.eu.backoff.max"));
    }

    @Test
    void keys_for_consumed_queues_and_global_keys_are_fine() {
        assertEquals(List.of(), problems(Map.of("jobqueue.queue.email.max-attempts", "3",
                "jobqueue.lease", "30s"), Set.of("email")));
    }

    @Test
    void a_key_for_a_queue_without_a_consumer_is_a_problem_unless_the_queue_is_producer_only() {
        List<String> found = problems(Map.of("jobqueue.queue.emial.max-attempts", "3"), Set.of("email"));

        assertEquals(1, found.size());
        assertTrue(found.get(0).contains("jobqueue.queue.emial.max-attempts"), found.get(0));
        assertTrue(found.get(0).contains("jobqueue.queue.emial.producer-only=true"), found.get(0));
        assertEquals(List.of(), problems(Map.of("jobqueue.queue.sms.max-attempts", "3",
                "jobqueue.queue.sms.producer-only", "true"), Set.of("email")));
    }

    @Test
    void an_unknown_option_is_a_problem_that_lists_the_options() {
        List<String> found = problems(Map.of("jobqueue.queue.email.max-attempt", "3"), Set.of("email"));

        assertEquals(1, found.size());
        assertTrue(found.get(0).contains("unknown option"), found.get(0));
        assertTrue(found.get(0).contains("max-attempts"), found.get(0));
    }
}
