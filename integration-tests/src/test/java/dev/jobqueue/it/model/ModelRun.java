package dev.jobqueue.it.model;

import dev.jobqueue.DuplicateJobException;
import dev.jobqueue.JobAdmin;
import dev.jobqueue.JobId;
import dev.jobqueue.JobOptions;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobRequest;
import dev.jobqueue.it.model.ModelConsumers.Call;
import dev.jobqueue.it.model.ModelConsumers.ModelJob;
import dev.jobqueue.it.model.ModelConsumers.Script;
import dev.jobqueue.it.model.ModelConsumers.Scripts;
import dev.jobqueue.it.model.ModelRows.Row;
import dev.jobqueue.it.model.ModelRows.Snapshot;
import dev.jobqueue.test.JobQueueTester;
import dev.jobqueue.test.TestClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Runs one sequence against the server and knows what each put and drain must do; {@link AdminSteps} knows the
 * admin actions, {@link Invariants} what holds after every step. The first broken promise throws
 * {@link AssertionError}.
 */
public class ModelRun {

    /** The server's side of the model: what the test injected. */
    public record Services(JobQueue jobs, JobQueueTester tester, TestClock clock, JobAdmin admin, Scripts scripts,
            ModelRows rows) {
    }

    final Services s;
    final List<String> putIds = new ArrayList<>();
    final Set<String> paused = new HashSet<>();
    private final Invariants invariants;
    private final AdminSteps adminSteps;
    private int nextN;
    Snapshot last;

    public ModelRun(Services services) {
        this.s = services;
        this.invariants = new Invariants(this);
        this.adminSteps = new AdminSteps(this);
    }

    /** Clears the model's queues, then runs {@code steps}, checking each. */
    public void run(List<Step> steps) {
        // A sequence that failed may have left a consumer's backoff: end it, and step over the worker's wait.
        boolean backedOff = s.scripts().calls().stream().anyMatch(call -> call.ended().equals("BACKOFF"));
        s.rows().clear();
        s.scripts().clear();
        if (backedOff) {
            ModelConsumers.QUEUES.forEach(s.admin()::resume);
            s.clock().advance(Duration.ofDays(10).plusHours(1));
        }
        last = s.rows().snapshot(s.clock().now());
        for (int i = 0; i < steps.size(); i++) {
            Step step = steps.get(i);
            Snapshot before = last;
            try {
                if (step instanceof Step.Put put) {
                    put(put, before);
                } else if (step instanceof Step.PutAll putAll) {
                    putAll(putAll, before);
                } else if (step instanceof Step.Drain drain) {
                    drain(drain.queue(), before);
                } else if (step instanceof Step.Advance advance) {
                    s.clock().advance(Duration.ofHours(advance.hours()));
                    last = s.rows().snapshot(s.clock().now());
                } else {
                    adminSteps.apply((Step.Admin) step, before);
                }
                invariants.afterStep(step, before, last);
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError("step " + i + " " + step + ": " + e.getMessage(), e);
            }
        }
    }

    String id(int put) {
        return put < putIds.size() ? putIds.get(put) : null;
    }

    private void put(Step.Put put, Snapshot before) {
        int n = nextN++;
        s.scripts().put(n, Script.parse(put.script()));
        List<String> after = dependencies(put, before);
        JobOptions options = options(put, after);
        Row holder = put.key() == null ? null : before.jobs().values().stream()
                .filter(r -> r.queue().equals(put.queue()) && put.key().equals(r.key()) && r.unfinished())
                .findFirst().orElse(null);
        String id;
        try {
            id = s.jobs().put(put.queue(), new ModelJob(n), options).toString();
        } catch (DuplicateJobException e) {
            check(holder != null, "a put threw " + e + " but no unfinished job held its key");
            check(put.policy() == dev.jobqueue.DuplicatePolicy.REJECT, "a put with " + put.policy() + " threw " + e);
            check(e.existing().toString().equals(holder.id()), "the exception names " + e.existing()
                    + ", not the holder " + holder);
            putIds.add(null);
            last = s.rows().snapshot(s.clock().now());
            return;
        }
        putIds.add(id);
        last = s.rows().snapshot(s.clock().now());
        if (holder != null) {
            check(put.policy() != dev.jobqueue.DuplicatePolicy.REJECT, "a REJECT put with a held key returned " + id);
            check(id.equals(holder.id()), "a put with a held key returned " + id + ", not its holder " + holder);
            check(last.jobs().size() == before.jobs().size(), "a put with a held key wrote a row");
            if (put.policy() == dev.jobqueue.DuplicatePolicy.REPLACE) {
                check(last.job(id).n() == n, "REPLACE left the holder's payload: " + last.job(id));
            }
            return;
        }
        checkNewJob(id, after, before);
    }

    /**
     * A putAll of jobs on one queue, which must do what the same puts one after another in one transaction would,
     * or, if one of them is refused, write nothing at all.
     */
    private void putAll(Step.PutAll call, Snapshot before) {
        String queue = call.puts().get(0).queue();
        int first = putIds.size();
        List<JobRequest> requests = new ArrayList<>();
        List<Integer> ns = new ArrayList<>();
        List<List<String>> afters = new ArrayList<>();
        // The earlier jobs of the call each waits for, by index: JobRequest.after.
        List<List<Integer>> earlier = new ArrayList<>();
        for (int i = 0; i < call.puts().size(); i++) {
            Step.Put put = call.puts().get(i);
            int n = nextN++;
            ns.add(n);
            s.scripts().put(n, Script.parse(put.script()));
            List<String> after = dependencies(put, before);
            afters.add(after);
            int index = i;
            List<Integer> inCall = put.after().stream().filter(p -> p >= first && p < first + index)
                    .map(p -> p - first).distinct().toList();
            earlier.add(inCall);
            JobRequest request = JobRequest.of(new ModelJob(n), options(put, after));
            for (int k : inCall) {
                request = request.after(requests.get(k));
            }
            requests.add(request);
        }
        // The holder of each key as the call goes: a job's id, or "#i" for the call's own job at index i.
        Map<String, String> holders = new HashMap<>();
        before.jobs().values().stream().filter(r -> r.queue().equals(queue) && r.key() != null && r.unfinished())
                .forEach(r -> holders.put(r.key(), r.id()));
        List<String> expectedHolder = new ArrayList<>();
        Map<String, Integer> expectedN = new HashMap<>();
        int refused = -1;
        // Whether the call's job at each index is new and FAILED at once.
        List<Boolean> failsAtOnce = new ArrayList<>();
        for (int i = 0; i < call.puts().size() && refused < 0; i++) {
            Step.Put put = call.puts().get(i);
            String holder = put.key() == null ? null : holders.get(put.key());
            expectedHolder.add(holder);
            // A job that waits for a FAILED or CANCELLED job, or for a job of the call that is FAILED at once, is
            // FAILED at once, and holds no key.
            boolean fails = holder == null && (afters.get(i).stream().anyMatch(d -> before.job(d).ended())
                    || earlier.get(i).stream().anyMatch(failsAtOnce::get));
            failsAtOnce.add(fails);
            if (holder == null) {
                if (put.key() != null && !fails) {
                    holders.put(put.key(), "#" + i);
                }
                expectedN.put("#" + i, ns.get(i));
            } else if (put.policy() == dev.jobqueue.DuplicatePolicy.REJECT) {
                refused = i;
            } else if (put.policy() == dev.jobqueue.DuplicatePolicy.REPLACE) {
                expectedN.put(holder, ns.get(i));
            }
        }
        List<JobId> ids;
        try {
            ids = s.jobs().putAll(queue, requests);
        } catch (DuplicateJobException e) {
            check(refused >= 0, "a putAll threw " + e + " though no job of it was to be refused");
            check(e.getMessage().contains("index " + refused), "the refusal names another job: " + e.getMessage());
            last = s.rows().snapshot(s.clock().now());
            check(last.jobs().size() == before.jobs().size(), "a refused putAll wrote a row");
            before.jobs().values().forEach(b -> check(last.job(b.id()) == null || last.job(b.id()).n() == b.n(),
                    "a refused putAll replaced a payload: " + b + " became " + last.job(b.id())));
            call.puts().forEach(put -> putIds.add(null));
            return;
        }
        check(refused < 0, "a putAll returned " + ids + " though the job at index " + refused + " was to be refused");
        check(ids.size() == call.puts().size(), "a putAll of " + call.puts().size() + " returned " + ids);
        last = s.rows().snapshot(s.clock().now());
        for (int i = 0; i < ids.size(); i++) {
            String id = ids.get(i).toString();
            putIds.add(id);
            String holder = expectedHolder.get(i);
            String resolved = holder != null && holder.startsWith("#")
                    ? ids.get(Integer.parseInt(holder.substring(1))).toString() : holder;
            if (resolved != null) {
                check(id.equals(resolved), "the job at index " + i + " got " + id + ", not its key's holder "
                        + resolved);
            } else if (earlier.get(i).isEmpty()) {
                checkNewJob(id, afters.get(i), before);
            } else {
                // The earlier jobs of the call it waits for are unfinished, or FAILED at once.
                String expected = failsAtOnce.get(i) ? "FAILED" : "WAITING";
                check(last.job(id) != null && last.job(id).state().equals(expected), "a job of a putAll waiting for "
                        + afters.get(i) + " and the call's jobs at " + earlier.get(i) + " is " + last.job(id)
                        + ", expected " + expected);
            }
        }
        expectedN.forEach((holder, n) -> {
            String id = holder.startsWith("#") ? ids.get(Integer.parseInt(holder.substring(1))).toString() : holder;
            check(last.job(id).n() == n, "after the putAll " + last.job(id) + " has the payload of put " + last.job(id)
                    .n() + ", expected " + n);
        });
    }

    /** The jobs that exist before the put among those it names. A job can wait only for jobs that exist. */
    private List<String> dependencies(Step.Put put, Snapshot before) {
        return put.after().stream().map(this::id).filter(Objects::nonNull).filter(id -> before.job(id) != null)
                .distinct().toList();
    }

    private static JobOptions options(Step.Put put, List<String> after) {
        JobOptions options = JobOptions.defaults().delay(Duration.ofHours(put.delayHours()));
        if (put.key() != null) {
            options = options.key(put.key(), put.policy());
        }
        if (put.orderingKey() != null) {
            options = options.orderingKey(put.orderingKey());
        }
        if (put.group() != null) {
            options = options.group(put.group());
        }
        for (String dependency : after) {
            options = options.after(JobId.parse(dependency));
        }
        return options;
    }

    /** A new row for the put's job, WAITING, PENDING or FAILED by the state of its dependencies before the put. */
    private void checkNewJob(String id, List<String> after, Snapshot before) {
        Row row = last.job(id);
        check(row != null && before.job(id) == null, "a put returned " + id + " but wrote no new row");
        boolean failed = after.stream().anyMatch(d -> before.job(d).ended());
        boolean waits = after.stream().anyMatch(d -> !before.job(d).state().equals("DONE"));
        String expected = failed ? "FAILED" : waits ? "WAITING" : "PENDING";
        check(row.state().equals(expected), "a put waiting for " + after + " is " + row + ", expected " + expected);
    }

    private void drain(String queue, Snapshot before) {
        if (paused.contains(queue)) {
            return; // Nothing is claimed on a paused queue: a drain would wait for ever.
        }
        int callsBefore = s.scripts().calls().size();
        boolean mayStop = Drains.mayStop(this, queue, before);
        try {
            s.tester().drain(queue, mayStop ? Duration.ofMillis(300) : Duration.ofSeconds(20));
        } catch (IllegalStateException stuck) {
            check(mayStop, "the drain did not finish, though no job of it waited for a key or a backoff: "
                    + stuck.getMessage());
        }
        Drains.awaitNoneRunning(this, queue);
        Drains.settle(this, queue);
        List<Call> calls = s.scripts().calls();
        Set<String> held = Drains.heldByBackoff(calls.subList(callsBefore, calls.size()));
        last = s.rows().snapshot(s.clock().now());
        Drains.checkOutcomes(this, queue, before, last, held);
        ModelRows.QueueRow flow = last.queues().get(queue);
        if (!held.isEmpty() || flow != null && flow.pausedUntil() != null
                && flow.pausedUntil().isAfter(s.clock().now())) {
            // A consumer's backoff: the model ends it, and steps over the worker's own wait.
            s.admin().resume(queue);
            s.clock().advance(Duration.ofDays(10).plusHours(1));
            last = s.rows().snapshot(s.clock().now());
        }
    }

    static void check(boolean promise, String broken) {
        if (!promise) {
            throw new AssertionError(broken);
        }
    }
}
