package dev.jobqueue.internal.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PeriodicTaskTest {

    private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2);

    @AfterEach
    void shutDown() {
        scheduler.shutdownNow();
    }

    /** WildFly took an application down under a running depth count, whose transaction then stayed open. */
    @Test
    void stopWaitsForTheRunInProgress() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        AtomicBoolean ended = new AtomicBoolean();
        PeriodicTask task = new PeriodicTask();
        task.start(scheduler, () -> {
            entered.countDown();
            sleep(Duration.ofMillis(500));
            ended.set(true);
        }, Duration.ZERO, Duration.ofSeconds(60));
        assertTrue(entered.await(5, TimeUnit.SECONDS));

        task.stop();

        assertTrue(ended.get(), "stop returned while the run was still in progress");
    }

    @Test
    void noRunStartsAfterStop() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        PeriodicTask task = new PeriodicTask();
        task.start(scheduler, runs::incrementAndGet, Duration.ZERO, Duration.ofMillis(10));
        sleep(Duration.ofMillis(100));

        task.stop();
        int runsAtStop = runs.get();
        sleep(Duration.ofMillis(100));

        assertTrue(runsAtStop > 0);
        assertEquals(runsAtStop, runs.get());
    }

    /** The lease keeper's period is a promise: a round that takes most of it must not push the next one back. */
    @Test
    void aFixedRateTaskKeepsItsBeatWhenRunsTakeMostOfThePeriod() throws Exception {
        List<Long> starts = new CopyOnWriteArrayList<>();
        CountDownLatch fiveRuns = new CountDownLatch(5);
        PeriodicTask task = new PeriodicTask();
        task.startAtFixedRate(scheduler, () -> {
            starts.add(System.nanoTime());
            sleep(Duration.ofMillis(200));
            fiveRuns.countDown();
        }, Duration.ZERO, Duration.ofMillis(300));
        assertTrue(fiveRuns.await(10, TimeUnit.SECONDS));
        task.stop();

        // Four periods of 300 ms; with the run's 200 ms added to each, as a fixed delay adds them, 2,000 ms.
        long fourPeriods = TimeUnit.NANOSECONDS.toMillis(starts.get(4) - starts.get(0));
        assertTrue(fourPeriods < 1_600, "five starts spanned " + fourPeriods + " ms");
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
