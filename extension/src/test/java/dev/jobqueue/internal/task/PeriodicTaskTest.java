package dev.jobqueue.internal.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
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

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
