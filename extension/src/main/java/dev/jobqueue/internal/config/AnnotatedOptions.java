package dev.jobqueue.internal.config;

import dev.jobqueue.Consumer;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/** Reads the options set on a {@link Consumer} annotation, by option name, as the text config would hold. */
public final class AnnotatedOptions {

    private AnnotatedOptions() {
    }

    public static Map<String, String> of(Consumer consumer) {
        Map<String, String> set = new LinkedHashMap<>();
        if (consumer.maxAttempts() != 0) {
            set.put("max-attempts", Integer.toString(consumer.maxAttempts()));
        }
        putText(set, "backoff.initial", consumer.backoffInitial());
        if (consumer.backoffMultiplier() != 0) {
            set.put("backoff.multiplier", Double.toString(consumer.backoffMultiplier()));
        }
        putText(set, "backoff.max", consumer.backoffMax());
        if (consumer.backoffJitter() >= 0) {
            set.put("backoff.jitter", Double.toString(consumer.backoffJitter()));
        }
        if (consumer.backoffDelays().length > 0) {
            set.put("backoff.delays", String.join(",", consumer.backoffDelays()));
        }
        putText(set, "lease", consumer.lease());
        putText(set, "max-execute-time", consumer.maxExecuteTime());
        putText(set, "poll-interval", consumer.pollInterval());
        if (consumer.concurrency() != 0) {
            set.put("concurrency", Integer.toString(consumer.concurrency()));
        }
        if (consumer.batchSize() != 0) {
            set.put("batch-size", Integer.toString(consumer.batchSize()));
        }
        if (consumer.jobsPerCall() != 0) {
            set.put("jobs-per-call", Integer.toString(consumer.jobsPerCall()));
        }
        if (consumer.jobsPerTransaction() != 0) {
            set.put(QueueOptionsResolver.JOBS_PER_TRANSACTION, Integer.toString(consumer.jobsPerTransaction()));
        }
        if (!consumer.enabled()) {
            set.put("enabled", "false");
        }
        if (consumer.successOn().length > 0) {
            set.put("success-on", Arrays.stream(consumer.successOn()).map(Class::getName)
                    .collect(Collectors.joining(",")));
        }
        if (!consumer.transactional()) {
            set.put("transactional", "false");
        }
        putText(set, "retention", consumer.retention());
        putText(set, QueueOptionsResolver.MAX_PAYLOAD_SIZE, consumer.maxPayloadSize());
        putText(set, QueueOptionsResolver.RATE_LIMIT, consumer.rateLimit());
        if (consumer.maxRunning() != 0) {
            set.put(QueueOptionsResolver.MAX_RUNNING, Integer.toString(consumer.maxRunning()));
        }
        if (consumer.strictPayload()) {
            set.put("strict-payload", "true");
        }
        putText(set, QueueOptionsResolver.TRACE_PARENT, consumer.traceParent());
        return set;
    }

    private static void putText(Map<String, String> set, String option, String value) {
        if (!value.isEmpty()) {
            set.put(option, value);
        }
    }
}
