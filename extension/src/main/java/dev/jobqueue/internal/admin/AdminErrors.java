package dev.jobqueue.internal.admin;

import dev.jobqueue.internal.Messages;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

/**
 * Answers the requests Jakarta REST refuses before any admin method runs (a path that does not exist, a method a
 * path does not take, a body it cannot read) with their status and a one-line JSON error with its JQ code,
 * instead of leaving the exception unhandled: the server would log each one as a warning with a stack trace.
 * Registered by {@link JobAdminApplication} only.
 */
public class AdminErrors implements ExceptionMapper<WebApplicationException> {

    @Override
    public Response toResponse(WebApplicationException exception) {
        Response refused = exception.getResponse();
        Response.StatusType status = refused.getStatusInfo();
        String message = status.getStatusCode() == Response.Status.BAD_REQUEST.getStatusCode()
                ? Messages.unreadableRequest("a parameter, a header or the body is not well-formed, such as broken"
                        + " percent-encoding or JSON")
                : Messages.requestRefused(status.getStatusCode(), status.getReasonPhrase());
        return Response.fromResponse(refused).type(MediaType.APPLICATION_JSON).entity(ErrorBody.of(message)).build();
    }
}
