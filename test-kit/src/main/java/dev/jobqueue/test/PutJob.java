package dev.jobqueue.test;

import dev.jobqueue.JobId;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import java.time.Instant;

/**
 * A job that was put and has not finished, as a test asserts on it.
 *
 * @param id          the job
 * @param queue       its queue
 * @param state       PENDING, WAITING or RUNNING
 * @param payloadJson its payload as stored: JSON
 * @param runAt       when it is due
 * @param priority    its priority
 * @param key         its dedupe key, or null
 * @param orderingKey its ordering key, or null
 * @param group       its group, or null
 */
public record PutJob(JobId id, String queue, String state, String payloadJson, Instant runAt, int priority,
        String key, String orderingKey, String group) {

    /** JSON-B as jobqueue configures it: the defaults. */
    private static final Jsonb JSON = JsonbBuilder.create();

    /** The payload read back as {@code type}, with JSON-B, as a consumer taking that type gets it. */
    public <T> T payload(Class<T> type) {
        return JSON.fromJson(payloadJson, type);
    }
}
