package dev.jobqueue.it.cancel;

import dev.jobqueue.GroupFinished;
import dev.jobqueue.JobCancelled;
import dev.jobqueue.JobFailed;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** The payloads the consumers ran, and the events the queue fired. */
@ApplicationScoped
public class CancelRecorder {

    private final List<String> ran = new CopyOnWriteArrayList<>();
    private final List<JobCancelled> cancelled = new CopyOnWriteArrayList<>();
    private final List<JobFailed> failed = new CopyOnWriteArrayList<>();
    private final List<GroupFinished> groups = new CopyOnWriteArrayList<>();

    void ran(String payload) {
        ran.add(payload);
    }

    List<String> ran() {
        return List.copyOf(ran);
    }

    List<JobCancelled> cancelled() {
        return List.copyOf(cancelled);
    }

    List<JobFailed> failed() {
        return List.copyOf(failed);
    }

    List<GroupFinished> groups() {
        return List.copyOf(groups);
    }

    void onCancel(@Observes JobCancelled event) {
        cancelled.add(event);
    }

    void onFailure(@Observes JobFailed event) {
        failed.add(event);
    }

    void onGroupFinished(@Observes GroupFinished event) {
        groups.add(event);
    }
}
