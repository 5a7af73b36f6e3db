package dev.jobqueue.internal.admin;

import dev.jobqueue.internal.Messages;
import jakarta.json.bind.JsonbException;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Answers every other exception an admin request ends in. A body that is not the JSON the request takes is the
 * caller's mistake: 400 with JQ072, and nothing logged. Anything else is the server's: 500 with JQ079 and a
 * reference, and the cause logged once under that reference, so the caller learns nothing of the server's
 * internals. Registered by {@link JobAdminApplication} only; {@link AdminErrors} takes the refusals of Jakarta
 * REST itself.
 */
public class AdminFailures implements ExceptionMapper<Throwable> {

    private static final Logger LOG = Logger.getLogger(AdminFailures.class.getName());

    @Override
    public Response toResponse(Throwable failure) {
        if (unreadableBody(failure)) {
            return AdminEndpoint.refuse(Response.Status.BAD_REQUEST,
                    Messages.unreadableRequest("the body is not the JSON this request takes, {\"ids\":[...]}"));
        }
        String reference = UUID.randomUUID().toString();
        LOG.log(Level.SEVERE, Messages.adminFailed(reference), failure);
        return AdminEndpoint.refuse(Response.Status.INTERNAL_SERVER_ERROR, Messages.adminFailed(reference));
    }

    private static boolean unreadableBody(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof JsonbException || cause instanceof jakarta.json.JsonException) {
                return true;
            }
        }
        return failure instanceof ProcessingException;
    }
}
