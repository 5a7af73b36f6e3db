package dev.jobqueue.internal.health;

import dev.jobqueue.internal.Messages;
import dev.jobqueue.internal.store.SchemaCheck;
import jakarta.enterprise.event.Observes;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready when the database answers and jobqueue's tables are there. Anyone may ask (readiness endpoints are
 * usually open to the load balancer), so a DOWN answer says only what is wrong in general: the database's own
 * error can name hosts, users and tables. That detail is logged instead, once when readiness goes DOWN, not at
 * every call, and the return to UP is logged once too.
 * An application-scoped bean when the server has the feature: the extension adds it ({@code Integrations}).
 */
@Readiness
public class DatabaseReadiness implements HealthCheck {

    static final String NAME = "jobqueue-database";
    private static final Logger LOG = Logger.getLogger(DatabaseReadiness.class.getName());

    /** Checks that jobqueue can use the database, and throws if it cannot. */
    interface Probe {
        void run() throws Exception;
    }

    private volatile SchemaCheck schema;

    private final AtomicBoolean down = new AtomicBoolean();

    void started(@Observes HealthSources sources) {
        schema = sources.schema();
    }

    @Override
    public HealthCheckResponse call() {
        SchemaCheck started = schema;
        return check(started == null ? () -> {
            throw new IllegalStateException("jobqueue has not started");
        } : started::probe);
    }

    /** The check itself, with the probe passed in so that a test can make it fail. */
    HealthCheckResponse check(Probe probe) {
        try {
            probe.run();
        } catch (Exception e) {
            if (down.compareAndSet(false, true)) {
                LOG.warning(Messages.databaseNotReadyDetail(String.valueOf(e)));
            }
            // The constructor, not HealthCheckResponse.named(...): it needs no provider, so a unit test can call it.
            return new HealthCheckResponse(NAME, HealthCheckResponse.Status.DOWN,
                    Optional.of(Map.of("error", Messages.databaseNotReady())));
        }
        if (down.compareAndSet(true, false)) {
            LOG.info("jobqueue: readiness is UP again: the database answers and jobqueue's tables are there");
        }
        return new HealthCheckResponse(NAME, HealthCheckResponse.Status.UP, Optional.empty());
    }
}
