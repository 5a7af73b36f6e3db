package dev.jobqueue;

import java.util.Objects;
import java.util.UUID;

/**
 * The identity of a job: a random UUID assigned at {@link JobQueue#put}.
 *
 * @param value the UUID
 */
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
}
