package dev.jobqueue;

import jakarta.json.bind.adapter.JsonbAdapter;
import jakarta.json.bind.annotation.JsonbTypeAdapter;
import java.util.Objects;
import java.util.UUID;

/**
 * The identity of a job: a random UUID assigned at {@link JobQueue#put}. In JSON (JSON-B) it is the UUID as a
 * string, {@code "0190a0b0-..."}, the same text the admin API's URLs take.
 *
 * @param value the UUID
 */
@JsonbTypeAdapter(JobId.AsText.class)
public record JobId(UUID value) {

    public JobId {
        Objects.requireNonNull(value, "value");
    }

    /** Returns a new random id. */
    public static JobId random() {
        return new JobId(UUID.randomUUID());
    }

    /**
     * Parses the canonical text form returned by {@link #toString()}.
     *
     * @throws IllegalArgumentException if {@code text} is not a UUID
     */
    public static JobId parse(String text) {
        return new JobId(UUID.fromString(text));
    }

    @Override
    public String toString() {
        return value.toString();
    }

    /** Writes a job id as its UUID text in JSON-B, and reads it back. */
    public static final class AsText implements JsonbAdapter<JobId, String> {

        @Override
        public String adaptToJson(JobId id) {
            return id.toString();
        }

        @Override
        public JobId adaptFromJson(String text) {
            return parse(text);
        }
    }
}
