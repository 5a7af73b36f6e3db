package dev.jobqueue.it.options;

import dev.jobqueue.GroupFinished;
import dev.jobqueue.JobFailed;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/** What the consumers ran, in order, and the events the queue fired. */
@ApplicationScoped
public class Runs {

    /**
     * One consumer call.
     *
     * @param payload   the payload
     * @param attempt   the attempt
     * @param startedAt when the consumer started
     * @param endedAt   when it returned or threw
     * @param succeeded whether it returned
     */
    public record Run(String payload, int attempt, Instant startedAt, Instant endedAt, boolean succeeded) {
    }

    private final List<Run> runs = new CopyOnWriteArrayList<>();
    private final List<JobFailed> failures = new CopyOnWriteArrayList<>();
    private final List<GroupFinished> groups = new CopyOnWriteArrayList<>();
    private final AtomicBoolean failing = new AtomicBoolean();

    public void add(Run run) {
        runs.add(run);
    }

    /** The calls whose payload starts with {@code prefix}, in the order they started. */
    public List<Run> of(String prefix) {
        return runs.stream().filter(run -> run.payload().startsWith(prefix)).toList();
    }

    public List<String> succeeded(String prefix) {
        return of(prefix).stream().filter(Run::succeeded).map(Run::payload).toList();
    }

    public void setFailing(boolean value) {
        failing.set(value);
    }

    public boolean failing() {
        return failing.get();
    }

    void onFailure(@Observes JobFailed failed) {
        failures.add(failed);
    }

    void onGroupFinished(@Observes GroupFinished finished) {
        groups.add(finished);
    }

    public List<JobFailed> failures() {
        return List.copyOf(failures);
    }

    public List<GroupFinished> groupsFinished(String group) {
        return groups.stream().filter(event -> event.group().equals(group)).toList();
    }
}
