package dev.jobqueue.internal.health;

import dev.jobqueue.internal.dispatch.Dispatcher;
import dev.jobqueue.internal.watch.LeaseKeeper;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
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

    private static final String NAME = "jobqueue-workers";

    private volatile HealthSources sources;

    void started(@Observes HealthSources sources) {
        this.sources = sources;
    }

    @Override
    public HealthCheckResponse call() {
        HealthSources started = sources;
        if (started == null) {
            return down("not started");
        }
        try {
            return checked(started);
        } catch (RuntimeException e) {
            // The application is stopping, or starting again, and its beans cannot be reached.
            return down("not running: " + e.getClass().getSimpleName());
        }
    }

    private static HealthCheckResponse down(String why) {
        return new HealthCheckResponse(NAME, HealthCheckResponse.Status.DOWN, Optional.of(Map.of("jobqueue", why)));
    }

    private static HealthCheckResponse checked(HealthSources started) {
        Dispatcher dispatcher = started.dispatcher();
        LeaseKeeper leaseKeeper = started.leaseKeeper();
        Instant now = started.clock().instant();
        Map<String, Object> verdicts = new LinkedHashMap<>();
        boolean up = true;
        for (var entry : dispatcher.pollerHealth().entrySet()) {
            String verdict = verdict(entry.getValue().lastPoll(), entry.getValue().bound(), now);
            verdicts.put("poller " + entry.getKey(), verdict);
            up &= verdict.startsWith("ran");
        }
        if (!verdicts.isEmpty()) {
            Duration bound = leaseKeeper.period().multipliedBy(3).plusSeconds(2);
            String verdict = verdict(leaseKeeper.lastRound(), bound, now);
            verdicts.put("lease keeper", verdict);
            up &= verdict.startsWith("ran");
        }
        return new HealthCheckResponse(NAME, up ? HealthCheckResponse.Status.UP : HealthCheckResponse.Status.DOWN,
                verdicts.isEmpty() ? Optional.empty() : Optional.of(verdicts));
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
