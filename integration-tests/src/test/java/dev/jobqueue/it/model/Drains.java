package dev.jobqueue.it.model;

import static dev.jobqueue.it.model.ModelRun.check;

import dev.jobqueue.it.model.ModelConsumers.Call;
import dev.jobqueue.it.model.ModelConsumers.Outcome;
import dev.jobqueue.it.model.ModelRows.Row;
import dev.jobqueue.it.model.ModelRows.Snapshot;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** What a drain of one queue must do, from the rows before it and the scripts of its jobs. */
final class Drains {

    private Drains() {
    }

    /**
     * Whether a drain may stop short of running every due job: one of them waits for its ordering key, or a
     * consumer may throw {@code QueueBackoffException}, which holds the queue until the model resumes it.
     */
    static boolean mayStop(ModelRun run, String queue, Snapshot before) {
        for (Row row : before.jobs().values()) {
            if (row.queue().equals(queue) && row.unfinished()
                    && (run.s.scripts().backoffAhead(row.n(), row.attempts() + 1) || heldKey(before, row))) {
                return true;
            }
        }
        return false;
    }

    /** Whether an earlier unfinished job of the queue holds {@code row}'s ordering key. */
    static boolean heldKey(Snapshot snapshot, Row row) {
        return row.orderingKey() != null && snapshot.jobs().values().stream()
                .anyMatch(o -> o.queue().equals(row.queue()) && row.orderingKey().equals(o.orderingKey())
                        && o.seq() < row.seq() && o.unfinished());
    }

    static void awaitNoneRunning(ModelRun run, String queue) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (run.s.rows().snapshot(run.s.clock().now()).jobs().values().stream()
                .anyMatch(r -> r.queue().equals(queue) && r.state().equals("RUNNING"))) {
            check(System.nanoTime() < deadline, "jobs of " + queue + " are still RUNNING 10 s after the drain");
            sleep(5);
        }
    }

    /**
     * Waits a little longer: a job released from WAITING, or claimed by the worker on its own as the drain returned,
     * may run on after it (JobQueueTester waits only for the jobs that were due when it started).
     */
    static void settle(ModelRun run, String queue) {
        sleep(10);
        awaitNoneRunning(run, queue);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * The jobs of every transaction in which a call threw {@code QueueBackoffException}: they wait with the queue.
     * No call may take one of them again in the same drain, since the queue waits until the model resumes it; a
     * batch (or several jobs per transaction) is called once, not split in halves.
     */
    static Set<String> heldByBackoff(List<Call> calls) {
        Set<String> held = new HashSet<>();
        for (int i = 0; i < calls.size(); i++) {
            Call call = calls.get(i);
            if (!call.ended().equals("BACKOFF")) {
                continue;
            }
            Set<String> jobs = new HashSet<>(call.ids());
            calls.stream().filter(c -> c.transaction() != null && c.transaction().equals(call.transaction()))
                    .forEach(c -> jobs.addAll(c.ids()));
            for (Call later : calls.subList(i + 1, calls.size())) {
                check(later.ids().stream().noneMatch(jobs::contains), "after a call threw QueueBackoffException,"
                        + " its jobs " + jobs + " were called again before the backoff ended: " + call + " then "
                        + later);
            }
            held.addAll(jobs);
        }
        return held;
    }

    /** Each job's row after the drain, against what its script says. */
    static void checkOutcomes(ModelRun run, String queue, Snapshot before, Snapshot after, Set<String> held) {
        for (Row b : before.jobs().values()) {
            Row a = after.job(b.id());
            check(a != null, "a drain deleted " + b);
            boolean same = a.state().equals(b.state()) && a.attempts() == b.attempts();
            if (!b.queue().equals(queue)) {
                check(same || b.state().equals("WAITING") && a.attempts() == b.attempts(),
                        "a drain of " + queue + " changed " + b + " to " + a);
                continue;
            }
            if (held.contains(b.id())) {
                check(a.state().equals("PENDING") && a.attempts() == b.attempts(), "a job whose call backed off"
                        + " must be PENDING with its attempt not counted: " + b + " became " + a);
                continue;
            }
            boolean due = b.state().equals("PENDING") && !b.runAt().isAfter(before.now());
            boolean ran = matches(run, b, a);
            if (due && held.isEmpty() && !heldKey(before, b)) {
                check(ran, "a due job " + b + " became " + a + ", not what its script "
                        + run.s.scripts().script(b.n()) + " says");
            } else if (b.state().equals("WAITING")) {
                check(ran || a.attempts() == b.attempts() && !a.state().equals("DONE"),
                        "a WAITING job " + b + " became " + a);
            } else if (due) {
                check(ran || same, "a due job " + b + " that may wait became " + a);
            } else {
                check(same, "a drain changed " + b + ", which was not due, to " + a);
            }
        }
    }

    /** Whether {@code a} is what one attempt of {@code b}, as its script says, leaves. */
    private static boolean matches(ModelRun run, Row b, Row a) {
        int attempt = b.attempts() + 1;
        Outcome outcome = run.s.scripts().script(b.n()).at(attempt);
        String state = outcome.done() ? "DONE" : attempt < ModelConsumers.MAX_ATTEMPTS ? "PENDING" : "FAILED";
        return a.attempts() == attempt && a.state().equals(state);
    }
}
