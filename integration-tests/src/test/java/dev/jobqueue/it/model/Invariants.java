package dev.jobqueue.it.model;

import static dev.jobqueue.it.model.ModelRun.check;

import dev.jobqueue.GroupFinished;
import dev.jobqueue.JobAdmin.GroupProgress;
import dev.jobqueue.it.model.ModelRows.Row;
import dev.jobqueue.it.model.ModelRows.Snapshot;
import dev.jobqueue.it.model.Step.Action;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** What holds after every step, read from all the job rows, and each row's change along the documented graph. */
final class Invariants {

    private static final Set<Action> DELETES = Set.of(Action.DELETE_ONE, Action.DELETE_IDS, Action.DELETE_FILTER,
            Action.PURGE);
    private static final Set<Action> RETRIES = Set.of(Action.RETRY_ONE, Action.RETRY_IDS, Action.RETRY_FILTER,
            Action.RETRY_QUEUE);
    private static final Set<Action> CANCELS = Set.of(Action.CANCEL_ONE, Action.CANCEL_IDS, Action.CANCEL_FILTER);

    private final ModelRun run;
    /** GroupFinished events expected so far, at least and at most, by group. */
    private final Map<String, int[]> expectedFinishes = new HashMap<>();

    Invariants(ModelRun run) {
        this.run = run;
    }

    void afterStep(Step step, Snapshot before, Snapshot after) {
        Action action = step instanceof Step.Admin admin ? admin.action() : null;
        Map<String, String> keys = new HashMap<>();
        for (Row a : after.jobs().values()) {
            check(!a.state().equals("RUNNING"), "a job is RUNNING after the step: " + a);
            check(a.attempts() <= ModelConsumers.MAX_ATTEMPTS, "more attempts than max-attempts: " + a);
            if (a.unfinished() && a.key() != null) {
                String other = keys.put(a.queue() + "/" + a.key(), a.id());
                check(other == null, "two unfinished jobs hold one dedupe key: " + a + ", " + after.job(other));
            }
            List<Row> deps = after.deps(a.id()).stream().map(after::job).filter(d -> d != null).toList();
            if (a.state().equals("WAITING")) {
                check(deps.stream().noneMatch(Row::ended),
                        "a WAITING job waits for a FAILED or CANCELLED job, for ever: " + a + " waits for " + deps);
                check(deps.stream().anyMatch(Row::unfinished),
                        "a WAITING job has no unfinished job to wait for: " + a + " waits for " + deps);
            }
            if (a.state().equals("PENDING")) {
                check(deps.stream().allMatch(d -> d.state().equals("DONE")),
                        "a PENDING job waits for a job that is not DONE: " + a + " waits for " + deps);
            }
            Row b = before.job(a.id());
            if (b != null) {
                transition(b, a, action);
            }
        }
        for (Row b : before.jobs().values()) {
            check(after.job(b.id()) != null || DELETES.contains(action),
                    "a step that deletes nothing deleted " + b);
        }
        groups(step, before, after);
    }

    /**
     * WAITING, PENDING, RUNNING, then DONE (for good) or FAILED; or CANCELLED by a cancel, from WAITING or PENDING.
     * Only a retry leaves FAILED or CANCELLED, with no attempt.
     */
    private static void transition(Row b, Row a, Action action) {
        String change = b + " became " + a;
        if (a.state().equals("CANCELLED") && !b.state().equals("CANCELLED")) {
            check(CANCELS.contains(action) && (b.state().equals("PENDING") || b.state().equals("WAITING"))
                    && a.attempts() == b.attempts(), "only a cancel of a job that has not started cancels: " + change);
        }
        if (b.state().equals("DONE")) {
            check(a.state().equals("DONE") && a.attempts() == b.attempts(), "DONE is for good: " + change);
        } else if (b.ended() && !a.state().equals(b.state())) {
            check(RETRIES.contains(action) && a.attempts() == 0, "only a retry ends FAILED or CANCELLED: " + change);
        } else {
            check(a.attempts() >= b.attempts(), "attempts went down: " + change);
        }
        check(!(b.state().equals("PENDING") && a.state().equals("WAITING")), "a PENDING job never waits: " + change);
    }

    /** A group that finishes in the step fires GroupFinished once, with the group's counts. */
    private void groups(Step step, Snapshot before, Snapshot after) {
        Set<String> groups = new TreeSet<>();
        before.jobs().values().stream().filter(r -> r.group() != null).forEach(r -> groups.add(r.group()));
        after.jobs().values().stream().filter(r -> r.group() != null).forEach(r -> groups.add(r.group()));
        boolean unsure = step instanceof Step.Put || step instanceof Step.PutAll
                || step instanceof Step.Admin admin && DELETES.contains(admin.action());
        for (String group : groups) {
            long unfinishedBefore = count(before, group, true);
            long unfinishedAfter = count(after, group, true);
            long total = after.jobs().values().stream().filter(r -> group.equals(r.group())).count();
            boolean finished = unfinishedAfter == 0 && total > 0 && (unfinishedBefore > 0 || unsure);
            int[] expected = expectedFinishes.computeIfAbsent(group, g -> new int[2]);
            if (finished) {
                expected[0] += unsure ? 0 : 1;
                expected[1] += 1;
            }
            List<GroupFinished> events = awaitEvents(group, expected[0]);
            check(events.size() >= expected[0] && events.size() <= expected[1], "group " + group + " fired "
                    + events.size() + " GroupFinished, expected " + expected[0] + " to " + expected[1] + ": " + events);
            if (finished && !unsure) {
                GroupFinished last = events.get(events.size() - 1);
                check(last.done() == state(after, group, "DONE") && last.failed() == state(after, group,
                        "FAILED") && last.cancelled() == state(after, group, "CANCELLED"),
                        "GroupFinished counts " + last + " but the rows are " + rows(after, group));
            }
            GroupProgress progress = run.s.admin().group(group);
            check(progress.waiting() == state(after, group, "WAITING")
                    && progress.pending() == state(after, group, "PENDING") && progress.running() == 0
                    && progress.done() == state(after, group, "DONE")
                    && progress.failed() == state(after, group, "FAILED")
                    && progress.cancelled() == state(after, group, "CANCELLED"),
                    "JobAdmin.group says " + progress + " but the rows are " + rows(after, group));
        }
    }

    private List<GroupFinished> awaitEvents(String group, int atLeast) {
        long deadline = System.nanoTime() + 2_000_000_000L;
        while (true) {
            List<GroupFinished> events = run.s.scripts().groupEvents().stream()
                    .filter(e -> e.group().equals(group)).toList();
            if (events.size() >= atLeast || System.nanoTime() > deadline) {
                return events;
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return events;
            }
        }
    }

    private static long count(Snapshot snapshot, String group, boolean unfinished) {
        return snapshot.jobs().values().stream().filter(r -> group.equals(r.group()) && r.unfinished() == unfinished)
                .count();
    }

    private static long state(Snapshot snapshot, String group, String state) {
        return snapshot.jobs().values().stream().filter(r -> group.equals(r.group()) && r.state().equals(state))
                .count();
    }

    private static List<Row> rows(Snapshot snapshot, String group) {
        return snapshot.jobs().values().stream().filter(r -> group.equals(r.group())).toList();
    }
}
