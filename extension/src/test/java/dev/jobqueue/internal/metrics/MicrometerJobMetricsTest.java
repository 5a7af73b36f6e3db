package dev.jobqueue.internal.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MicrometerJobMetricsTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final MicrometerJobMetrics metrics = MicrometerJobMetrics.reportingTo(registry);

    @Test
    void the_applications_queues_are_registered_at_zero_before_their_first_job() {
        metrics.ownQueues(Set.of("mail"));

        assertEquals(0, registry.get("jobqueue.enqueued").tag("queue", "mail").counter().count());
        for (String outcome : List.of("done", "retried", "failed")) {
            assertEquals(0, registry.get("jobqueue.finished").tags("queue", "mail", "outcome", outcome).counter()
                    .count());
        }
        assertEquals(0, registry.get("jobqueue.execution.time").tag("queue", "mail").timer().count());
        assertEquals(0, registry.get("jobqueue.leases.rescued").tag("queue", "mail").counter().count());
    }

    @Test
    void counts_and_times_under_the_queue_and_puts_other_queues_in_one_series() {
        metrics.ownQueues(Set.of("mail"));

        metrics.enqueued("mail", 3);
        metrics.enqueued("tenant-7", 2);
        metrics.finished("mail", JobMetrics.Outcome.RETRIED);
        metrics.executed("mail", Duration.ofMillis(40));
        metrics.waited("mail", Duration.ofMillis(5));
        metrics.leaseRescued("mail");

        assertEquals(3, registry.get("jobqueue.enqueued").tag("queue", "mail").counter().count());
        assertEquals(2, registry.get("jobqueue.enqueued").tag("queue", "(other)").counter().count());
        assertNull(registry.find("jobqueue.enqueued").tag("queue", "tenant-7").counter(), "no series per tenant");
        assertEquals(1, registry.get("jobqueue.finished").tags("queue", "mail", "outcome", "retried").counter()
                .count());
        Timer executed = registry.get("jobqueue.execution.time").tag("queue", "mail").timer();
        assertEquals(1, executed.count());
        assertEquals(40, executed.totalTime(java.util.concurrent.TimeUnit.MILLISECONDS), 0.001);
        assertEquals(40, executed.max(java.util.concurrent.TimeUnit.MILLISECONDS), 0.001);
        assertEquals(1, registry.get("jobqueue.wait.time").tag("queue", "mail").timer().count());
        assertEquals(1, registry.get("jobqueue.leases.rescued").tag("queue", "mail").counter().count());
    }

    @Test
    void gauges_read_the_depth_by_state_and_the_stuck_consumers_when_scraped() {
        Map<String, Long> depth = new java.util.HashMap<>(Map.of("pending", 4L, "running", 1L, "failed", 0L));

        metrics.registerGauges("mail", depth::get, queue -> queue.equals("mail") ? 2 : -1);
        depth.put("pending", 9L);

        assertEquals(9, registry.get("jobqueue.depth").tags("queue", "mail", "state", "pending").gauge().value());
        assertEquals(1, registry.get("jobqueue.depth").tags("queue", "mail", "state", "running").gauge().value());
        assertEquals(2, registry.get("jobqueue.stuck").tag("queue", "mail").gauge().value());
    }

    @Test
    void when_the_application_stops_its_meters_leave_the_registry_and_no_one_elses_do() {
        registry.counter("app.orders");
        metrics.ownQueues(Set.of("mail"));
        metrics.registerGauges("mail", state -> 1, queue -> 0);
        metrics.occurrences("nightly", JobMetrics.OccurrenceOutcome.PUT, 1);

        metrics.removeMeters();

        assertEquals(List.of("app.orders"), registry.getMeters().stream().map(meter -> meter.getId().getName())
                .toList());
    }

    @Test
    void a_deleted_schedules_series_are_removed() {
        metrics.occurrences("nightly", JobMetrics.OccurrenceOutcome.PUT, 2);
        metrics.occurrences("nightly", JobMetrics.OccurrenceOutcome.MISSED, 1);
        metrics.occurrences("hourly", JobMetrics.OccurrenceOutcome.PUT, 1);
        assertEquals(2, registry.get("jobqueue.schedule.occurrences").tags("schedule", "nightly", "outcome", "put")
                .counter().count());
        assertEquals(Set.of("nightly", "hourly"), metrics.countedSchedules());

        metrics.forgetSchedules(List.of("nightly"));

        assertTrue(registry.find("jobqueue.schedule.occurrences").tag("schedule", "nightly").meters().isEmpty());
        assertEquals(1, registry.get("jobqueue.schedule.occurrences").tag("schedule", "hourly").counter().count());
        assertEquals(Set.of("hourly"), metrics.countedSchedules());
    }
}
