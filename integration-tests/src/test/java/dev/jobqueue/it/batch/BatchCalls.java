package dev.jobqueue.it.batch;

import dev.jobqueue.JobContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** The payloads of each call of the batch consumer, committed or not, and whether each had its contexts in order. */
@ApplicationScoped
public class BatchCalls {

    private final List<List<String>> calls = new CopyOnWriteArrayList<>();
    private volatile boolean contextsMatched = true;

    void called(List<String> orderIds, List<JobContext> contexts) {
        calls.add(List.copyOf(orderIds));
        if (contexts.size() != orderIds.size()) {
            contextsMatched = false;
        }
    }

    /** The calls whose payloads all start with {@code prefix}. */
    public List<List<String>> callsOf(String prefix) {
        return calls.stream().filter(call -> call.stream().allMatch(id -> id.startsWith(prefix)
                || id.startsWith("poison-" + prefix))).toList();
    }

    public boolean contextsMatched() {
        return contextsMatched;
    }
}
