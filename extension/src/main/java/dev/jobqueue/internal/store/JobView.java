package dev.jobqueue.internal.store;

/**
 * One job as the admin job view shows it, with at most a given number of its payload's characters.
 *
 * @param listing       the job without its payload
 * @param payload       the payload, or its beginning
 * @param payloadLength the whole payload's length in characters
 */
public record JobView(JobListing listing, String payload, long payloadLength) {

    /** Whether {@link #payload()} is only the payload's beginning. */
    public boolean truncated() {
        return payload.length() < payloadLength;
    }
}
