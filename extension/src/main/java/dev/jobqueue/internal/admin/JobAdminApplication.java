package dev.jobqueue.internal.admin;

import jakarta.annotation.security.DeclareRoles;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import java.util.Set;

/**
 * Serves the admin REST resource at {@code <context root>/jobqueue/admin}, and nothing else, behind
 * {@link AdminGuard}. Set {@code jobqueue.admin.enabled=false} to answer 404 there. The dashboard's pages beside
 * it are served by {@link dev.jobqueue.internal.dashboard.DashboardFilter}.
 */
@ApplicationPath("jobqueue")
@DeclareRoles({JobAdminResource.ROLE, JobAdminResource.VIEWER_ROLE})
public class JobAdminApplication extends Application {

    @Override
    public Set<Class<?>> getClasses() {
        return Set.of(JobAdminResource.class, AdminGuard.class, AdminErrors.class);
    }
}
