package dev.jobqueue.internal.health;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jobqueue.internal.dispatch.Dispatcher;
import java.time.Clock;
import java.util.Map;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.junit.jupiter.api.Test;

class WorkerLivenessTest {

    @Test
    void a_dispatcher_that_cannot_be_reached_while_the_application_stops_gives_a_named_down_answer() {
        Dispatcher stopping = new Dispatcher() {
            @Override
            public Map<String, PollerHealth> pollerHealth() {
                throw new IllegalArgumentException("WFLYWELD0049: Can't find a resource named"
                        + " java:comp/DefaultManagedExecutorService");
            }
        };
        WorkerLiveness liveness = new WorkerLiveness();
        liveness.started(new HealthSources(null, stopping, null, Clock.systemUTC()));

        HealthCheckResponse response = liveness.call();

        assertEquals(HealthCheckResponse.Status.DOWN, response.getStatus());
        assertEquals("jobqueue-workers", response.getName());
        assertEquals("not running: IllegalArgumentException", response.getData().orElseThrow().get("jobqueue"));
    }
}
