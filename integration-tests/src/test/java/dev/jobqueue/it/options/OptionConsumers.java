package dev.jobqueue.it.options;

import dev.jobqueue.Consumer;
import dev.jobqueue.JobContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;

/** Consumers that record every call; payloads say how they behave. */
@ApplicationScoped
public class OptionConsumers {

    @Inject
    Runs runs;

    /** Runs one job at a time, so the order of runs is the order of claims. */
    @Consumer(queue = "prioritised", concurrency = 1)
    public void prioritised(String payload, JobContext context) {
        record(payload, context, Instant.now(), false);
    }

    @Consumer(queue = "scheduled")
    public void scheduled(String payload, JobContext context) {
        record(payload, context, Instant.now(), false);
    }

    @Consumer(queue = "deduped")
    public void deduped(String payload, JobContext context) {
        record(payload, context, Instant.now(), false);
    }

    /** Fails a payload ending in "!" while {@link Runs#failing()} is set; each call takes a little while. */
    @Consumer(queue = "ordered", concurrency = 4)
    public void ordered(String payload, JobContext context) throws InterruptedException {
        Instant started = Instant.now();
        Thread.sleep(30);
        record(payload, context, started, payload.endsWith("!") && runs.failing());
    }

    /** Fails a payload ending in "!" always; the queue gives up after two attempts. */
    @Consumer(queue = "ordered-give-up", concurrency = 4)
    public void orderedGiveUp(String payload, JobContext context) {
        record(payload, context, Instant.now(), payload.endsWith("!"));
    }

    /** Fails a payload ending in "!" always, giving up at once; others wait while {@link Runs#failing()}. */
    @Consumer(queue = "dependencies")
    public void dependencies(String payload, JobContext context) throws InterruptedException {
        Instant started = Instant.now();
        while (!payload.endsWith("!") && payload.startsWith("slow") && runs.failing()) {
            Thread.sleep(20);
        }
        record(payload, context, started, payload.endsWith("!"));
    }

    @Consumer(queue = "grouped")
    public void grouped(String payload, JobContext context) {
        record(payload, context, Instant.now(), payload.endsWith("!"));
    }

    /** Not transactional: its DONE marks are written in batches. */
    @Consumer(queue = "untransacted", transactional = false, concurrency = 4)
    public void untransacted(String payload, JobContext context) {
        record(payload, context, Instant.now(), false);
    }

    /** Not transactional, and keeps no DONE jobs: finished rows are deleted in batches. */
    @Consumer(queue = "untransacted-unretained", transactional = false, concurrency = 4, retention = "0s")
    public void untransactedUnretained(String payload, JobContext context) {
        record(payload, context, Instant.now(), false);
    }

    /** One at a time, so a runner still held for a rolled-back put would leave none for the next put. */
    @Consumer(queue = "on-put", concurrency = 1)
    public void onPut(String payload, JobContext context) {
        record(payload, context, Instant.now(), false);
    }

    /** Fails every first attempt; its queue is polled only at start-up. */
    @Consumer(queue = "retry-on-time", concurrency = 1)
    public void retryOnTime(String payload, JobContext context) {
        record(payload, context, Instant.now(), context.attempt() == 1);
    }

    private void record(String payload, JobContext context, Instant started, boolean fail) {
        runs.add(new Runs.Run(payload, context.attempt(), started, Instant.now(), !fail));
        if (fail) {
            throw new IllegalStateException("failing on purpose: " + payload);
        }
    }
}
