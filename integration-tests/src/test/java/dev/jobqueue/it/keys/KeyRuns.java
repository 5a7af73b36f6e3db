package dev.jobqueue.it.keys;

import dev.jobqueue.GroupFinished;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** The payloads the consumers started, the GroupFinished events, and the switch that lets held jobs end. */
@ApplicationScoped
public class KeyRuns {

    private final List<String> started = new CopyOnWriteArrayList<>();
    private final List<GroupFinished> groups = new CopyOnWriteArrayList<>();
    private volatile CountDownLatch release = new CountDownLatch(1);

    void started(String payload) {
        started.add(payload);
    }

    public boolean hasStarted(String payload) {
        return started.contains(payload);
    }

    /** Blocks a held job until {@link #release()}, or 60 s. */
    void awaitRelease() throws InterruptedException {
        release.await(60, TimeUnit.SECONDS);
    }

    /** Lets the held jobs end; later held jobs are held again. */
    public void release() {
        CountDownLatch current = release;
        release = new CountDownLatch(1);
        current.countDown();
    }

    void onGroupFinished(@Observes GroupFinished finished) {
        groups.add(finished);
    }

    /** The GroupFinished events of exactly this group name. */
    public List<GroupFinished> groupsFinished(String group) {
        return groups.stream().filter(event -> event.group().equals(group)).toList();
    }
}
