package dev.jobqueue.internal.health;

import dev.jobqueue.internal.dispatch.Dispatcher;
import dev.jobqueue.internal.watch.LeaseKeeper;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Liveness;

/**
 * Live when every queue's poller has run within three poll intervals plus two seconds, and the lease keeper
 * within three of its periods plus two seconds, whether or not the database answered them; one that is running
 * counts as having just run, even while a statement waits on a database that hangs. A database outage does not
 * make it DOWN: readiness reports that, and a restart would not help.
 * An application-scoped bean when the server has the feature: the extension adds it ({@code Integrations}).
 */
@Liveness
public class WorkerLiveness implements HealthCheck {

    private volatile HealthSources sources;

    void started(@Observes HealthSources sources) {
        this.sources = sources;
    }

    @Override
    public HealthCheckResponse call() {
        HealthSources started = sources;
        HealthCheckResponseBuilder response = HealthCheckResponse.named("jobqueue-workers");
        if (started == null) {
            return response.withData("jobqueue", "not started").down().build();
        }
        Dispatcher dispatcher = started.dispatcher();
        LeaseKeeper leaseKeeper = started.leaseKeeper();
        Instant now = started.clock().instant();
        boolean up = true;
        for (var entry : dispatcher.pollerHealth().entrySet()) {
            String verdict = verdict(entry.getValue().lastPoll(), entry.getValue().bound(), now);
            response.withData("poller " + entry.getKey(), verdict);
            up &= verdict.startsWith("ran");
        }
        if (!dispatcher.pollerHealth().isEmpty()) {
            Duration bound = leaseKeeper.period().multipliedBy(3).plusSeconds(2);
            String verdict = verdict(leaseKeeper.lastRound(), bound, now);
            response.withData("lease keeper", verdict);
            up &= verdict.startsWith("ran");
        }
        return response.status(up).build();
    }

    private static String verdict(Instant last, Duration bound, Instant now) {
        if (last == null) {
            return "stopped";
        }
        Duration ago = Duration.between(last, now);
        return (ago.compareTo(bound) <= 0 ? "ran " : "late: ran ") + ago.toMillis() + " ms ago (bound "
                + bound.toMillis() + " ms)";
    }
}
