package dev.jobqueue.internal.store;

import dev.jobqueue.JobAdmin.Progress;

/**
 * One job as the admin job view shows it, with at most a given number of its payload's characters.
 *
 * @param listing       the job without its payload
 * @param payload       the payload, or its beginning
 * @param payloadLength the whole payload's length in characters
 * @param progress      what its last attempt reported, or null
 */
public record JobView(JobListing listing, String payload, long payloadLength, Progress progress) {

    /** Whether {@link #payload()} is only the payload's beginning. */
    public boolean truncated() {
        return payload.length() < payloadLength;
    }
}
