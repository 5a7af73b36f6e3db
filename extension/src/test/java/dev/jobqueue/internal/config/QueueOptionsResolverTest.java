package dev.jobqueue.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class QueueOptionsResolverTest {

    private static QueueOptionsResolver with(Map<String, String> config) {
        return new QueueOptionsResolver(key -> Optional.ofNullable(config.get(key)));
    }

    @Test
    void with_no_configuration_every_option_has_its_default() {
        QueueOptions options = with(Map.of()).resolve("email");

        assertEquals(QueueOptionsResolver.DEFAULT_MAX_ATTEMPTS, options.maxAttempts());
        assertEquals(QueueOptionsResolver.DEFAULT_LEASE, options.lease());
        assertEquals(QueueOptionsResolver.DEFAULT_POLL_INTERVAL, options.pollInterval());
        assertEquals(QueueOptionsResolver.DEFAULT_CONCURRENCY, options.concurrency());
        assertEquals(QueueOptionsResolver.DEFAULT_BATCH_SIZE, options.batchSize());
        assertEquals(new Backoff.Exponential(Duration.ofSeconds(1), 2.0, Duration.ofHours(1), 0.2), options.backoff());
    }

    @Test
    void a_global_key_beats_the_default() {
        QueueOptions options = with(Map.of("jobqueue.max-attempts", "3")).resolve("email");

        assertEquals(3, options.maxAttempts());
    }

    @Test
    void a_per_queue_key_beats_the_global_key_and_only_for_its_queue() {
        QueueOptionsResolver resolver = with(Map.of(
                "jobqueue.max-attempts", "3",
                "jobqueue.queue.email.max-attempts", "7"));

        assertEquals(7, resolver.resolve("email").maxAttempts());
        assertEquals(3, resolver.resolve("sms").maxAttempts());
    }

    @Test
    void a_list_of_delays_selects_fixed_backoff() {
        QueueOptions options = with(Map.of("jobqueue.queue.email.backoff.delays", "1s, 1m,1h")).resolve("email");

        assertEquals(new Backoff.Fixed(List.of(Duration.ofSeconds(1), Duration.ofMinutes(1), Duration.ofHours(1))),
                options.backoff());
    }

    @Test
    void a_bad_value_is_refused_with_a_message_naming_the_key_and_the_value() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> with(Map.of("jobqueue.queue.email.lease", "-5s")).resolve("email"));

        assertTrue(error.getMessage().contains("jobqueue.queue.email.lease"), error.getMessage());
        assertTrue(error.getMessage().contains("'-5s'"), error.getMessage());
    }

    @Test
    void a_count_below_one_is_refused() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> with(Map.of("jobqueue.concurrency", "0")).resolve("email"));

        assertTrue(error.getMessage().contains("jobqueue.concurrency"), error.getMessage());
    }
}
