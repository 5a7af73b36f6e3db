package dev.jobqueue.internal.admin;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;

/**
 * Marks every answer of the admin API, refusals included, as one no cache may keep and no browser may read as
 * anything but its declared type: the answers carry payloads and errors. Registered by {@link JobAdminApplication}
 * only.
 */
public class AdminHeaders implements ContainerResponseFilter {

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        response.getHeaders().putSingle("Cache-Control", "no-store");
        response.getHeaders().putSingle("X-Content-Type-Options", "nosniff");
    }
}
