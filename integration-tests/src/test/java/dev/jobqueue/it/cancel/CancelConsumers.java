package dev.jobqueue.it.cancel;

import dev.jobqueue.Consumer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** The queues of CancelIT: one whose jobs run at once, and one whose job runs until the test lets it end. */
@ApplicationScoped
public class CancelConsumers {

    /** Holds the "cancel-slow" job RUNNING until counted down. */
    static volatile CountDownLatch release = new CountDownLatch(1);

    @Inject
    CancelRecorder recorder;

    @Consumer(queue = "cancel-work")
    public void work(String payload) {
        recorder.ran(payload);
    }

    @Consumer(queue = "cancel-slow")
    public void slow(String payload) throws InterruptedException {
        recorder.ran(payload);
        release.await(30, TimeUnit.SECONDS);
    }
}
