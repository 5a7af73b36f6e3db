package dev.jobqueue.internal.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.internal.fixtures.FakeClaimStore;
import dev.jobqueue.internal.fixtures.FakeLeaseStore;
import dev.jobqueue.internal.fixtures.FixedNodeName;
import dev.jobqueue.internal.fixtures.ManualExecutor;
import dev.jobqueue.internal.fixtures.SettableClock;
import dev.jobqueue.internal.fixtures.TestOptions;
import dev.jobqueue.internal.metrics.NoopJobMetrics;
import dev.jobqueue.internal.store.ClaimedJob;
import dev.jobqueue.internal.time.LeaseClocks;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the node's dispatcher hands back when the application stops: claimed jobs that never started, and jobs
 * still running when the grace period ends, whose threads are then interrupted. On a scheduler and runners the
 * test runs by hand, with a grace period of zero: no thread, no sleep.
 */
class DispatcherShutdownTest {

    private static final Instant T0 = Instant.parse("2026-03-01T09:00:00Z");

    private final SettableClock clock = new SettableClock(T0);
    private final ManualExecutor scheduler = new ManualExecutor();
    private final ManualExecutor runners = new ManualExecutor();
    private final FakeClaimStore claims = new FakeClaimStore();
    private final FakeLeaseStore leases = new FakeLeaseStore();
    private final ScriptedJobExecutor jobs = new ScriptedJobExecutor();
    private final Dispatcher dispatcher = new Dispatcher();

    DispatcherShutdownTest() {
        dispatcher.clock = clock;
        dispatcher.scheduler = scheduler;
        dispatcher.executor = runners;
        dispatcher.leaseClock = LeaseClocks.following(clock);
        dispatcher.node = new FixedNodeName("node-1");
        dispatcher.claims = claims;
        dispatcher.leases = leases;
        dispatcher.jobExecutor = jobs;
        dispatcher.running = new RunningJobs();
        dispatcher.database = null;
        dispatcher.runMode = new AutomaticRunMode();
        dispatcher.metrics = new NoopJobMetrics();
        dispatcher.start(ReportsConsumer.method(), TestOptions.queue("reports").concurrency(1).build());
        IntStream.range(0, 3).forEach(n -> claims.addDue("job-" + n, "reports", 0, T0));
    }

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    private void pollOnce() {
        scheduler.tick();
        scheduler.runQueued();
    }

    @Test
    void claimed_jobs_that_had_not_started_are_released_and_never_run() {
        pollOnce();

        dispatcher.stop(Duration.ZERO);
        runners.runQueued();

        assertEquals(List.of("job-0"), leases.released.stream().map(ClaimedJob::id).toList());
        assertEquals(List.of(), jobs.ran);
        assertTrue(dispatcher.running.isEmpty());
    }

    @Test
    void a_job_still_running_after_the_grace_period_is_released_first_and_then_interrupted() {
        boolean[] interruptedAfterRelease = {false};
        jobs.outcome = job -> {
            dispatcher.stop(Duration.ZERO);
            interruptedAfterRelease[0] = Thread.currentThread().isInterrupted() && leases.released.size() == 1;
            return Outcome.LEASE_LOST;
        };
        pollOnce();

        runners.runQueued();

        assertEquals(List.of("job-0"), jobs.ran);
        assertEquals(List.of("job-0"), leases.released.stream().map(ClaimedJob::id).toList());
        assertTrue(interruptedAfterRelease[0], "the runner's thread is interrupted once its job is released");
    }

    @Test
    void a_polling_queue_stops_polling() {
        pollOnce();
        dispatcher.stop(Duration.ZERO);
        int claimsBefore = claims.claims.size();

        pollOnce();

        assertEquals(claimsBefore, claims.claims.size());
    }
}
