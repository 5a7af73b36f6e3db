package dev.jobqueue.it.model;

import dev.jobqueue.DuplicatePolicy;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One operation of a sequence. Jobs are named by the number of the put that returned them (0 for the first put).
 * Each step prints as the Java expression that makes it, so a shrunk sequence pastes into a regression test.
 */
public sealed interface Step {

    /** Admin actions; {@code rest} says whether the REST API or {@code JobAdmin} takes it. */
    enum Action {
        RETRY_ONE, RETRY_IDS, RETRY_FILTER, RETRY_QUEUE, DELETE_ONE, DELETE_IDS, DELETE_FILTER, PURGE, PAUSE, RESUME,
        LIMITS, CANCEL_ONE, CANCEL_IDS, CANCEL_FILTER
    }

    /** A put on {@code queue}; {@code key}, {@code orderingKey} and {@code group} may be null. */
    record Put(String queue, String key, DuplicatePolicy policy, String orderingKey, String group, List<Integer> after,
            int delayHours, String script) implements Step {
        @Override
        public String toString() {
            return "Step.put(" + q(queue) + ", " + q(key) + ", DuplicatePolicy." + policy + ", " + q(orderingKey) + ", "
                    + q(group) + ", " + list(after) + ", " + delayHours + ", " + q(script) + ")";
        }
    }

    /** One putAll of the puts, all on the first one's queue. */
    record PutAll(List<Put> puts) implements Step {
        @Override
        public String toString() {
            return puts.stream().map(Put::toString).collect(Collectors.joining(", ", "Step.putAll(", ")"));
        }
    }

    /** {@code JobQueueTester.drain(queue)}. */
    record Drain(String queue) implements Step {
        @Override
        public String toString() {
            return "Step.drain(" + q(queue) + ")";
        }
    }

    /** {@code TestClock.advance}. */
    record Advance(int hours) implements Step {
        @Override
        public String toString() {
            return "Step.advance(" + hours + ")";
        }
    }

    /**
     * An admin action on the jobs of the puts {@code jobs}, on {@code queue}, or on the FAILED jobs of {@code queue}
     * with dedupe key {@code key} (a filter; null means no such filter).
     */
    record Admin(Action action, boolean rest, List<Integer> jobs, String queue, String key) implements Step {
        @Override
        public String toString() {
            return "Step.admin(Action." + action + ", " + rest + ", " + list(jobs) + ", " + q(queue) + ", " + q(key)
                    + ")";
        }
    }

    static Step put(String queue, String key, DuplicatePolicy policy, String orderingKey, String group,
            List<Integer> after, int delayHours, String script) {
        return new Put(queue, key, policy, orderingKey, group, after, delayHours, script);
    }

    static Step putAll(Step... puts) {
        return new PutAll(java.util.Arrays.stream(puts).map(Put.class::cast).toList());
    }

    static Step drain(String queue) {
        return new Drain(queue);
    }

    static Step advance(int hours) {
        return new Advance(hours);
    }

    static Step admin(Action action, boolean rest, List<Integer> jobs, String queue, String key) {
        return new Admin(action, rest, jobs, queue, key);
    }

    private static String q(String text) {
        return text == null ? "null" : "\"" + text + "\"";
    }

    private static String list(List<Integer> numbers) {
        return numbers.stream().map(String::valueOf).collect(Collectors.joining(", ", "List.of(", ")"));
    }
}
