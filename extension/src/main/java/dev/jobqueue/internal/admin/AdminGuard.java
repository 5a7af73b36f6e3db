package dev.jobqueue.internal.admin;

import dev.jobqueue.internal.Messages;
import dev.jobqueue.internal.config.NodeSettings;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Lets a request into the admin API only when the API is enabled and the user is authenticated and in the role
 * {@value AdminRoles#VIEWER} or {@value AdminRoles#ADMIN}; a request that changes something
 * also needs the role {@value AdminRoles#ADMIN} and the header {@value AdminRoles#REQUESTED_BY}.
 *
 * <p>As a filter it runs before the request is matched to a method, so it guards every request under the admin
 * path: HEAD and OPTIONS, which Jakarta REST answers itself without calling a resource method (and without the
 * container's role check), and paths that do not exist, which would otherwise tell an anonymous caller which ones
 * do. It is registered by {@link JobAdminApplication} only, never by scanning: as a provider it would guard the
 * application's own REST resources too. {@link AdminEndpoint} asks it again, for the case where an application
 * whose REST application scans every resource serves the admin resource without this filter.
 */
@PreMatching
public class AdminGuard implements ContainerRequestFilter {

    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");

    @Context
    HttpServletRequest servletRequest;

    @Override
    public void filter(ContainerRequestContext request) {
        if (request.getSecurityContext().getUserPrincipal() == null) {
            logIn(request.getHeaderString(HttpHeaders.AUTHORIZATION));
        }
        refusal(request.getSecurityContext(), request.getMethod(),
                request.getHeaderString(AdminRoles.REQUESTED_BY)).ifPresent(request::abortWith);
    }

    /**
     * Logs the request in with its Basic credentials, where the server has not: Liberty authenticates every
     * request that carries credentials, Payara only those to a resource a security constraint protects, which the
     * admin API, guarded here rather than by constraints, is not. Wrong or no credentials leave the request
     * anonymous, and {@link #refusal} answers 401.
     */
    private void logIn(String authorization) {
        if (authorization == null || servletRequest == null
                || !authorization.toLowerCase(Locale.ROOT).startsWith("basic ")) {
            return;
        }
        String credentials;
        try {
            credentials = new String(Base64.getDecoder().decode(authorization.substring(6).trim()),
                    StandardCharsets.UTF_8);
        } catch (IllegalArgumentException notBase64) {
            return;
        }
        int colon = credentials.indexOf(':');
        if (colon < 0) {
            return;
        }
        try {
            servletRequest.login(credentials.substring(0, colon), credentials.substring(colon + 1));
        } catch (ServletException refused) {
            // wrong credentials: anonymous
        }
    }

    /** The answer to a request that may not go further, or empty if it may. */
    static Optional<Response> refusal(SecurityContext security, String method, String requestedBy) {
        if (!CDI.current().select(NodeSettings.class).get().adminEnabled()) {
            return Optional.of(answer(Response.Status.NOT_FOUND, Messages.adminDisabled(NodeSettings.ADMIN_ENABLED)));
        }
        if (security.getUserPrincipal() == null) {
            return Optional.of(Response.fromResponse(answer(Response.Status.UNAUTHORIZED, Messages.authenticationRequired()))
                    .header("WWW-Authenticate", "Basic").build());
        }
        boolean admin = security.isUserInRole(AdminRoles.ADMIN);
        if (!admin && !security.isUserInRole(AdminRoles.VIEWER)) {
            return Optional.of(answer(Response.Status.FORBIDDEN, Messages.roleRequired(AdminRoles.VIEWER,
                    AdminRoles.ADMIN)));
        }
        boolean change = !SAFE_METHODS.contains(method);
        if (change && !admin) {
            return Optional.of(answer(Response.Status.FORBIDDEN, Messages.viewerCannotChange(AdminRoles.ADMIN)));
        }
        if (change && (requestedBy == null || requestedBy.isBlank())) {
            return Optional.of(answer(Response.Status.FORBIDDEN,
                    Messages.missingRequestedByHeader(AdminRoles.REQUESTED_BY)));
        }
        return Optional.empty();
    }

    private static Response answer(Response.Status status, String message) {
        return AdminEndpoint.refuse(status, message);
    }
}
