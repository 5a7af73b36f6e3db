package dev.jobqueue.internal.admin;

import dev.jobqueue.internal.Messages;

/** A request parameter or body that is not valid; the admin API answers 400 with this message and its JQ code. */
final class BadRequest extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param problem what is wrong, naming the parameter; JQ070 unless it starts with a code of its own */
    BadRequest(String problem) {
        super(Messages.codeOf(problem).equals("JQ079") ? Messages.badParameter(problem) : problem);
    }
}
