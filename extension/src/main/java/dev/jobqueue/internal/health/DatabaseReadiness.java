package dev.jobqueue.internal.health;

import dev.jobqueue.internal.store.SchemaCheck;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Ready when the database answers and jobqueue's tables are there. */
@Readiness
@ApplicationScoped
public class DatabaseReadiness implements HealthCheck {

    @Inject
    SchemaCheck schema;

    @Override
    public HealthCheckResponse call() {
        try {
            schema.probe();
            return HealthCheckResponse.named("jobqueue-database").up().build();
        } catch (Exception e) {
            return HealthCheckResponse.named("jobqueue-database").down()
                    .withData("error", String.valueOf(e.getMessage())).build();
        }
    }
}
