package dev.jobqueue.internal.admin;

import jakarta.annotation.security.DeclareRoles;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import java.util.Map;
import java.util.Set;

/**
 * Serves the admin REST resources at {@code <context root>/jobqueue/admin}, and nothing else, behind
 * {@link AdminGuard}: jobs, failed jobs, queues, schedules and the cluster view, each a resource of its own. Set {@code jobqueue.admin.enabled=false} to answer 404 there. The dashboard's pages beside
 * it are served by {@link dev.jobqueue.internal.dashboard.DashboardFilter}.
 */
@ApplicationPath("jobqueue")
@DeclareRoles({AdminRoles.ADMIN, AdminRoles.VIEWER})
public class JobAdminApplication extends Application {

    @Override
    public Set<Class<?>> getClasses() {
        return Set.of(JobsResource.class, FailedJobsResource.class, QueuesResource.class, SchedulesResource.class,
                ClusterResource.class, AdminGuard.class, AdminErrors.class, AdminFailures.class, AdminHeaders.class);
    }

    /**
     * No WADL: Jersey (Payara's Jakarta REST) would otherwise answer OPTIONS with a WADL document naming the
     * resources' Java methods, and serve {@code application.wadl}, an operation the admin API's reference does not
     * list. The other servers ignore the property.
     */
    @Override
    public Map<String, Object> getProperties() {
        return Map.of("jersey.config.server.wadl.disableWadl", true);
    }
}
