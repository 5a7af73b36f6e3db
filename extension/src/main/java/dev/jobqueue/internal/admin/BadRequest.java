package dev.jobqueue.internal.admin;

/** A request parameter that is not valid; the admin API answers 400 with this message. */
final class BadRequest extends RuntimeException {

    private static final long serialVersionUID = 1L;

    BadRequest(String message) {
        super(message);
    }
}
