package dev.jobqueue.internal.admin;

import dev.jobqueue.internal.Messages;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Request;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What every resource of the admin API does around its operations: it asks {@link AdminGuard} again (the filter
 * may not have run, see there), turns a bad parameter into 400, and records each change in {@link ActionLog}.
 */
abstract class AdminEndpoint {

    @Inject
    ActionLog actions;

    @Context
    SecurityContext security;

    @Context
    HttpHeaders headers;

    @Context
    Request request;

    /** Runs {@code operation} if the caller may, turning a {@link BadRequest} into 400. */
    Response guarded(Supplier<Response> operation) {
        Optional<Response> refusal = AdminGuard.refusal(security, request.getMethod(),
                headers.getHeaderString(AdminRoles.REQUESTED_BY));
        if (refusal.isPresent()) {
            return refusal.get();
        }
        try {
            return operation.get();
        } catch (BadRequest e) {
            return refuse(Response.Status.BAD_REQUEST, e.getMessage());
        }
    }

    /** Records a change that committed, and answers with {@code response}. */
    Response acted(String action, String target, int count, Response response) {
        actions.record(security.getUserPrincipal().getName(), action, target, count);
        return response;
    }

    static Response notFound(String what) {
        return refuse(Response.Status.NOT_FOUND, Messages.codeOf(what).equals("JQ079") ? Messages.notFound(what) : what);
    }

    /** An answer with {@code status} and the error body of {@code message}, which starts with its JQ code. */
    static Response refuse(Response.Status status, String message) {
        return Response.status(status).type(MediaType.APPLICATION_JSON).entity(ErrorBody.of(message)).build();
    }
}
