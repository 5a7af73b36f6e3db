package dev.jobqueue.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class QueueOptionsResolverTest {

    private static QueueOptionsResolver with(Map<String, String> config) {
        return new QueueOptionsResolver(key -> Optional.ofNullable(config.get(key)),
                QueueOptionsResolverTest.class.getClassLoader());
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
        assertEquals(QueueOptionsResolver.DEFAULT_MAX_EXECUTE_TIME, options.maxExecuteTime());
        assertEquals(QueueOptionsResolver.DEFAULT_RETENTION, options.retention());
        assertTrue(options.enabled());
        assertTrue(options.transactional());
        assertEquals(List.of(), options.successOn());
        assertFalse(options.strictPayload());
    }

    @Test
    void strict_payload_is_set_on_the_annotation_or_by_key_and_takes_only_true_or_false() {
        assertTrue(with(Map.of()).resolve("email", Map.of("strict-payload", "true"), "Mailer#send(Mail)")
                .strictPayload());
        assertTrue(with(Map.of("jobqueue.queue.email.strict-payload", "true")).resolve("email").strictPayload());
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> with(Map.of("jobqueue.strict-payload", "yes")).resolve("email"));
        assertTrue(error.getMessage().contains("jobqueue.strict-payload") && error.getMessage().contains("'yes'"),
                error.getMessage());
    }

    @Test
    void an_annotation_value_beats_the_default_and_config_beats_the_annotation() {
        Map<String, String> annotated = Map.of("max-attempts", "5", "lease", "2m", "transactional", "false");

        QueueOptions annotationOnly = with(Map.of()).resolve("email", annotated, "Mailer#send(Mail)");
        QueueOptions overridden = with(Map.of("jobqueue.lease", "30s", "jobqueue.queue.email.max-attempts", "9"))
                .resolve("email", annotated, "Mailer#send(Mail)");

        assertEquals(5, annotationOnly.maxAttempts());
        assertEquals(Duration.ofMinutes(2), annotationOnly.lease());
        assertEquals(false, annotationOnly.transactional());
        assertEquals(9, overridden.maxAttempts());
        assertEquals(Duration.ofSeconds(30), overridden.lease());
    }

    @Test
    void a_bad_annotation_value_is_refused_naming_the_option_and_the_method() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> with(Map.of()).resolve("email", Map.of("poll-interval", "often"), "Mailer#send(Mail)"));

        assertTrue(error.getMessage().contains("poll-interval on @Consumer Mailer#send(Mail)"), error.getMessage());
        assertTrue(error.getMessage().contains("'often'"), error.getMessage());
    }

    @Test
    void success_on_loads_the_named_exception_types() {
        QueueOptions options = with(Map.of("jobqueue.queue.email.success-on",
                "java.lang.IllegalStateException, java.io.UncheckedIOException")).resolve("email");

        assertEquals(List.of(IllegalStateException.class, java.io.UncheckedIOException.class), options.successOn());
        assertTrue(options.countsAsSuccess(new RuntimeException(new IllegalStateException("wrapped"))));
    }

    @Test
    void an_unknown_or_non_exception_class_in_success_on_is_refused_naming_the_key() {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> with(Map.of("jobqueue.success-on", "com.example.NoSuchException")).resolve("email"));
        IllegalArgumentException notAnException = assertThrows(IllegalArgumentException.class,
                () -> with(Map.of("jobqueue.success-on", "java.lang.String")).resolve("email"));

        assertTrue(unknown.getMessage().contains("jobqueue.success-on"), unknown.getMessage());
        assertTrue(unknown.getMessage().contains("com.example.NoSuchException"), unknown.getMessage());
        assertTrue(notAnException.getMessage().contains("not an exception type"), notAnException.getMessage());
    }

    @Test
    void a_negative_retention_is_refused_but_zero_is_allowed() {
        assertEquals(Duration.ZERO, with(Map.of("jobqueue.retention", "0s")).resolve("email").retention());
        assertThrows(IllegalArgumentException.class,
                () -> with(Map.of("jobqueue.retention", "-PT1S")).resolve("email"));
    }

    @Test
    void a_global_key_beats_the_default() {
        QueueOptions options = with(Map.of("jobqueue.max-attempts", "3")).resolve("email");

        assertEquals(3, options.maxAttempts());
    }

    @Test
    void jobs_per_call_and_transactional_are_never_read_as_global_keys_as_they_must_fit_the_consumers_method() {
        QueueOptionsResolver resolver = with(Map.of("jobqueue.jobs-per-call", "5", "jobqueue.transactional", "false",
                "jobqueue.queue.pages.jobs-per-call", "50", "jobqueue.queue.calls.transactional", "false"));

        assertEquals(1, resolver.resolve("email").jobsPerCall());
        assertTrue(resolver.resolve("email").transactional());
        assertEquals(50, resolver.resolve("pages").jobsPerCall());
        assertFalse(resolver.resolve("calls").transactional());
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

    @Test
    void a_duration_that_would_overflow_is_a_jq020_problem_naming_the_key_not_an_arithmetic_error() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> with(Map.of("jobqueue.lease", "PT9999999999999H", "jobqueue.queue.email.retention",
                        "200000000000000d", "jobqueue.backoff.delays", "1s,10000000000000d")).resolve("email"));

        List<String> problems = error.getMessage().lines().toList();
        assertEquals(List.of(
                "JQ020: configuration key jobqueue.backoff.delays has the invalid value '1s,10000000000000d':"
                        + " a duration must be at most 36500d (about 100 years)",
                "JQ020: configuration key jobqueue.lease has the invalid value 'PT9999999999999H':"
                        + " a duration must be at most 36500d (about 100 years)",
                "JQ020: configuration key jobqueue.queue.email.retention has the invalid value '200000000000000d':"
                        + " a duration must be at most 36500d (about 100 years)"), problems);
    }

    @Test
    void the_payload_limit_is_one_mib_by_default_and_says_which_key_set_it() {
        QueueOptionsResolver resolver = with(Map.of("jobqueue.queue.big.max-payload-size", "8MiB"));

        assertEquals(new PayloadLimit(1 << 20, "jobqueue.max-payload-size (the default)"),
                resolver.resolve("email").maxPayloadSize());
        assertEquals(new PayloadLimit(8 << 20, "jobqueue.queue.big.max-payload-size"),
                resolver.resolve("big").maxPayloadSize());
        assertEquals(new PayloadLimit(64 << 10, "max-payload-size on @Consumer Mailer#send(Mail)"),
                resolver.resolve("email", Map.of("max-payload-size", "64KiB"), "Mailer#send(Mail)").maxPayloadSize());
        assertEquals(1 << 20, resolver.unconsumedPayloadLimit().bytes(), "per-queue keys are not read for it");
    }

    @Test
    void a_queue_with_no_consumer_uses_the_global_payload_limit_and_a_bad_one_names_the_key() {
        assertEquals(new PayloadLimit(2048, "jobqueue.max-payload-size"),
                with(Map.of("jobqueue.max-payload-size", "2KiB")).unconsumedPayloadLimit());

        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> with(Map.of("jobqueue.max-payload-size", "lots")).unconsumedPayloadLimit());
        IllegalArgumentException perQueue = assertThrows(IllegalArgumentException.class,
                () -> with(Map.of("jobqueue.queue.email.max-payload-size", "0")).resolve("email"));

        assertTrue(error.getMessage().startsWith("JQ020: configuration key jobqueue.max-payload-size has the invalid"
                + " value 'lots'"), error.getMessage());
        assertTrue(perQueue.getMessage().contains("jobqueue.queue.email.max-payload-size has the invalid value '0'"),
                perQueue.getMessage());
    }

    @Test
    void producer_only_takes_true_or_false_and_anything_else_is_refused_naming_the_key_not_read_as_false() {
        assertTrue(with(Map.of("jobqueue.queue.sms.producer-only", "TRUE")).producerOnly("sms"));
        assertFalse(with(Map.of("jobqueue.queue.sms.producer-only", "false")).producerOnly("sms"));
        assertFalse(with(Map.of()).producerOnly("sms"));

        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> with(Map.of("jobqueue.queue.sms.producer-only", "yes")).producerOnly("sms"));

        assertEquals("JQ020: configuration key jobqueue.queue.sms.producer-only has the invalid value 'yes': expected"
                + " true or false", error.getMessage());
    }

    @Test
    void rate_limit_and_max_running_are_none_by_default_and_set_on_the_annotation_or_by_a_per_queue_key() {
        assertEquals(QueueLimits.none(), with(Map.of()).resolve("partner").limits());
        QueueOptions annotated = with(Map.of()).resolve("partner", Map.of("rate-limit", "50/1s", "max-running", "5"),
                "Partner#call(Order)");
        assertEquals(new QueueLimits(new RateLimit(50, Duration.ofSeconds(1)), 5), annotated.limits());
        QueueOptions configured = with(Map.of("jobqueue.queue.partner.rate-limit", "10/1m",
                "jobqueue.queue.partner.max-running", "0")).resolve("partner",
                Map.of("rate-limit", "50/1s", "max-running", "5"), "Partner#call(Order)");
        assertEquals(new QueueLimits(new RateLimit(10, Duration.ofMinutes(1)), 0), configured.limits());
    }

    @Test
    void limits_are_never_read_as_global_keys_and_bad_ones_are_refused_naming_the_key() {
        assertEquals(QueueLimits.none(), with(Map.of("jobqueue.rate-limit", "1/1s", "jobqueue.max-running", "1"))
                .resolve("partner").limits());
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> with(Map.of(
                "jobqueue.queue.partner.rate-limit", "fifty", "jobqueue.queue.partner.max-running", "-1"))
                .resolve("partner"));
        assertTrue(error.getMessage().contains("jobqueue.queue.partner.rate-limit")
                && error.getMessage().contains("'fifty'") && error.getMessage().contains("50/1s"), error.getMessage());
        assertTrue(error.getMessage().contains("jobqueue.queue.partner.max-running")
                && error.getMessage().contains("at least 0"), error.getMessage());
    }

    @Test
    void trace_parent_is_child_by_default_and_set_on_the_annotation_globally_or_per_queue() {
        assertEquals(TraceParent.CHILD, with(Map.of()).resolve("email").traceParent());
        assertEquals(TraceParent.LINK, with(Map.of()).resolve("email", Map.of("trace-parent", "link"),
                "Mailer#send(Mail)").traceParent());
        assertEquals(TraceParent.NONE, with(Map.of("jobqueue.trace-parent", "NONE")).resolve("email").traceParent());
        assertEquals(TraceParent.CHILD, with(Map.of("jobqueue.trace-parent", "none",
                "jobqueue.queue.email.trace-parent", "child")).resolve("email").traceParent(), "the queue's key wins");
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> with(Map.of("jobqueue.queue.email.trace-parent", "parent")).resolve("email"));
        assertTrue(error.getMessage().contains("jobqueue.queue.email.trace-parent")
                && error.getMessage().contains("'parent'") && error.getMessage().contains("child, link or none"),
                error.getMessage());
    }
}
