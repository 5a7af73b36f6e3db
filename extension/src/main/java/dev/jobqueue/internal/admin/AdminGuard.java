package dev.jobqueue.internal.admin;

import dev.jobqueue.internal.Messages;
import dev.jobqueue.internal.config.NodeSettings;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.util.Optional;
import java.util.Set;

/**
 * Lets a request into the admin API only when the API is enabled and the user is authenticated and in the role
 * {@value JobAdminResource#VIEWER_ROLE} or {@value JobAdminResource#ROLE}; a request that changes something
 * also needs the role {@value JobAdminResource#ROLE} and the header {@value JobAdminResource#REQUESTED_BY}.
 *
 * <p>As a filter it runs before the request is matched to a method, so it guards every request under the admin
 * path: HEAD and OPTIONS, which Jakarta REST answers itself without calling a resource method (and without the
 * container's role check), and paths that do not exist, which would otherwise tell an anonymous caller which ones
 * do. It is registered by {@link JobAdminApplication} only, never by scanning: as a provider it would guard the
 * application's own REST resources too. {@link JobAdminResource} asks it again, for the case where an application
 * whose REST application scans every resource serves the admin resource without this filter.
 */
@PreMatching
public class AdminGuard implements ContainerRequestFilter {

    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");

    @Override
    public void filter(ContainerRequestContext request) {
        refusal(request.getSecurityContext(), request.getMethod(),
                request.getHeaderString(JobAdminResource.REQUESTED_BY)).ifPresent(request::abortWith);
    }

    /** The answer to a request that may not go further, or empty if it may. */
    static Optional<Response> refusal(SecurityContext security, String method, String requestedBy) {
        if (!CDI.current().select(NodeSettings.class).get().adminEnabled()) {
            return Optional.of(answer(Response.Status.NOT_FOUND,
                    "the jobqueue admin API is disabled (" + NodeSettings.ADMIN_ENABLED + "=false)"));
        }
        if (security.getUserPrincipal() == null) {
            return Optional.of(Response.fromResponse(answer(Response.Status.UNAUTHORIZED, "authentication required"))
                    .header("WWW-Authenticate", "Basic").build());
        }
        boolean admin = security.isUserInRole(JobAdminResource.ROLE);
        if (!admin && !security.isUserInRole(JobAdminResource.VIEWER_ROLE)) {
            return Optional.of(answer(Response.Status.FORBIDDEN, "the role " + JobAdminResource.VIEWER_ROLE + " or "
                    + JobAdminResource.ROLE + " is required"));
        }
        boolean change = !SAFE_METHODS.contains(method);
        if (change && !admin) {
            return Optional.of(answer(Response.Status.FORBIDDEN, Messages.viewerCannotChange(JobAdminResource.ROLE)));
        }
        if (change && (requestedBy == null || requestedBy.isBlank())) {
            return Optional.of(answer(Response.Status.FORBIDDEN,
                    Messages.missingRequestedByHeader(JobAdminResource.REQUESTED_BY)));
        }
        return Optional.empty();
    }

    private static Response answer(Response.Status status, String message) {
        return Response.status(status).type(MediaType.APPLICATION_JSON).entity(JobAdminResource.error(message)).build();
    }
}
