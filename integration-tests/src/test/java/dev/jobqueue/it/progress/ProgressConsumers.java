package dev.jobqueue.it.progress;

import dev.jobqueue.Consumer;
import dev.jobqueue.JobContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The consumers of ProgressIT. "progress-work" reports a quarter and waits; then reports a thousand times and fails,
 * in its transaction; its retry waits before it reports anything. "progress-bounds" reports values out of bounds.
 */
@ApplicationScoped
public class ProgressConsumers {

    static volatile CountDownLatch firstGoesOn = new CountDownLatch(1);
    static volatile CountDownLatch secondReports = new CountDownLatch(1);
    static volatile CountDownLatch secondEnds = new CountDownLatch(1);
    static final List<Integer> attemptsStarted = new CopyOnWriteArrayList<>();
    static final List<String> refusals = new CopyOnWriteArrayList<>();

    @Consumer(queue = "progress-work")
    public void work(String payload, JobContext context) throws InterruptedException {
        attemptsStarted.add(context.attempt());
        if (context.attempt() == 1) {
            context.progress(0.25, "a quarter");
            firstGoesOn.await(30, TimeUnit.SECONDS);
            for (int step = 1; step <= 1_000; step++) {
                context.progress(step / 1_000.0, "step " + step);
            }
            throw new IllegalStateException("the first attempt fails after its last report");
        }
        secondReports.await(30, TimeUnit.SECONDS);
        context.progress(0.5, "the second attempt, <b>half</b> way");
        secondEnds.await(30, TimeUnit.SECONDS);
    }

    @Consumer(queue = "progress-bounds")
    public void bounds(String payload, JobContext context) {
        for (double fraction : new double[] {-0.1, 1.5, Double.NaN}) {
            try {
                context.progress(fraction, null);
            } catch (IllegalArgumentException e) {
                refusals.add(e.getMessage());
            }
        }
        try {
            context.progress(0.5, "x".repeat(JobContext.MAX_PROGRESS_NOTE + 1));
        } catch (IllegalArgumentException e) {
            refusals.add(e.getMessage());
        }
        context.progress(1, "x".repeat(JobContext.MAX_PROGRESS_NOTE));
    }
}
