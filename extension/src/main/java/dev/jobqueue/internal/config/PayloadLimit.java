package dev.jobqueue.internal.config;

/**
 * The largest payload a put accepts on a queue, as the size in bytes of its JSON in UTF-8, and the setting it
 * comes from, so that a refused put can name the key to change.
 *
 * @param bytes the limit
 * @param setBy the configuration key or annotation that set it, or the global key with "(the default)"
 */
public record PayloadLimit(long bytes, String setBy) {
}
