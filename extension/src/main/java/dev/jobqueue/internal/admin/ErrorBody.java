package dev.jobqueue.internal.admin;

import dev.jobqueue.internal.Messages;

/**
 * The body of every refusal of the admin API: the message's code, such as {@code JQ070}, and one line that
 * names the problem and starts with that code.
 *
 * @param code  the JQ code a user can look up in the reference of messages
 * @param error the message
 */
public record ErrorBody(String code, String error) {

    /** The body for {@code message}, which starts with its code. */
    static ErrorBody of(String message) {
        return new ErrorBody(Messages.codeOf(message), message);
    }
}
