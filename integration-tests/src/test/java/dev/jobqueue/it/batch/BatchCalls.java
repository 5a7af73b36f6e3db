package dev.jobqueue.it.batch;

import dev.jobqueue.JobContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The payloads of each call of the batch consumer, committed or not, and whether each had its contexts in order;
 * and the transaction each call of the grouped consumer ran in.
 */
@ApplicationScoped
public class BatchCalls {

    private final List<List<String>> calls = new CopyOnWriteArrayList<>();
    private volatile boolean contextsMatched = true;
    private final Map<String, List<String>> backedOff = new ConcurrentHashMap<>();
    private final List<String[]> groupedCalls = new CopyOnWriteArrayList<>();

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

    /**
     * Whether the call of {@code orderIds} is the first with payloads of the tag of {@code orderId}
     * ({@code backoff-<tag>-<n>}); if so, it is the tag's call that backs off.
     */
    boolean firstBackoff(String orderId, List<String> orderIds) {
        String tag = orderId.substring(0, orderId.lastIndexOf('-') + 1);
        return backedOff.putIfAbsent(tag, List.copyOf(orderIds)) == null;
    }

    /** The payloads of the call with payloads of tag {@code prefix} that backed off, or an empty list. */
    public List<String> backedOff(String prefix) {
        return backedOff.getOrDefault(prefix, List.of());
    }

    public boolean contextsMatched() {
        return contextsMatched;
    }

    void calledIn(String transaction, String orderId) {
        groupedCalls.add(new String[] {transaction, orderId});
    }

    /** The grouped consumer's calls of payloads that start with {@code prefix}, by transaction, in call order. */
    public Map<String, List<String>> transactionsOf(String prefix) {
        Map<String, List<String>> byTransaction = new LinkedHashMap<>();
        groupedCalls.stream().filter(call -> call[1].startsWith(prefix) || call[1].startsWith("poison-" + prefix))
                .forEach(call -> byTransaction.computeIfAbsent(call[0], key -> new ArrayList<>()).add(call[1]));
        return byTransaction;
    }
}
