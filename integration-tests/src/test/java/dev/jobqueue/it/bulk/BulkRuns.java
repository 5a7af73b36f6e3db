package dev.jobqueue.it.bulk;

import dev.jobqueue.GroupFinished;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** The payloads the bulk consumers started, in order, the GroupFinished events, and the switch held jobs wait on. */
@ApplicationScoped
public class BulkRuns {

    private final List<String> started = new CopyOnWriteArrayList<>();
    private final List<GroupFinished> groups = new CopyOnWriteArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);

    void started(String payload) {
        started.add(payload);
    }

    /** The payloads started so far that begin with {@code prefix}, in the order they started. */
    public List<String> startedWith(String prefix) {
        return started.stream().filter(payload -> payload.startsWith(prefix)).toList();
    }

    /** Blocks a held job until {@link #release()}, or 60 s. */
    void awaitRelease() throws InterruptedException {
        release.await(60, TimeUnit.SECONDS);
    }

    public void release() {
        release.countDown();
    }

    void onGroupFinished(@Observes GroupFinished finished) {
        groups.add(finished);
    }

    public List<GroupFinished> groupsFinished(String group) {
        return groups.stream().filter(event -> event.group().equals(group)).toList();
    }
}
