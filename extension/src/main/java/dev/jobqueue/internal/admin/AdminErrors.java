package dev.jobqueue.internal.admin;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

/**
 * Answers the requests Jakarta REST refuses before any admin method runs (a path that does not exist, a method a
 * path does not take) with their status and a one-line JSON error, instead of leaving the exception unhandled:
 * the server would log each one as a warning with a stack trace. Registered by {@link JobAdminApplication} only.
 */
public class AdminErrors implements ExceptionMapper<WebApplicationException> {

    @Override
    public Response toResponse(WebApplicationException exception) {
        Response refused = exception.getResponse();
        return Response.fromResponse(refused).type(MediaType.APPLICATION_JSON)
                .entity(JobAdminResource.error(refused.getStatusInfo().getReasonPhrase())).build();
    }
}
