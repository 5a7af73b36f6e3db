package dev.jobqueue.it.recurring;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.Occurrence;
import dev.jobqueue.it.Deployments;
import dev.jobqueue.test.JobQueueTester;
import dev.jobqueue.test.TestClock;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.List;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Schedules fire on the database's clock, so a node whose own clock jumps neither fires ahead of time nor
 * bursts. The test kit's {@link TestClock} plays the jumping clock; the kit also leaves jobs to the test's
 * drains.
 */
@ExtendWith(ArquillianExtension.class)
class ScheduleClockIT {

    @Deployment
    static WebArchive app() {
        return Deployments.war("schedule-clock", "schedule-changes", ClockTicks.class, Occurrences.class)
                .addAsLibrary(Deployments.testKitJar());
    }

    @Inject
    TestClock clock;

    @Inject
    JobQueueTester tester;

    @Inject
    Occurrences occurrences;

    private List<ZonedDateTime> drained() {
        tester.drain("clock-ticks");
        return occurrences.received().stream().map(Occurrence.class::cast).map(Occurrence::scheduledFor).toList();
    }

    @Test
    void a_node_clock_that_jumps_an_hour_ahead_neither_fires_early_nor_bursts() throws Exception {
        Thread.sleep(2_000);
        int before = drained().size();
        clock.advance(Duration.ofHours(1));
        try {
            Thread.sleep(3_000);
            List<ZonedDateTime> all = drained();
            List<ZonedDateTime> fired = all.subList(before, all.size());
            assertTrue(fired.size() >= 1 && fired.size() <= 6, "about one a second, not a burst: " + fired);
            for (ZonedDateTime time : fired) {
                assertTrue(Duration.between(Instant.now(), time.toInstant()).abs().compareTo(Duration.ofSeconds(10)) < 0,
                        "on the database's time, not an hour ahead: " + time);
            }
        } finally {
            clock.reset();
        }
    }
}
