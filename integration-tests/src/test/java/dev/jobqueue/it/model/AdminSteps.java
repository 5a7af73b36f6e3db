package dev.jobqueue.it.model;

import static dev.jobqueue.it.model.ModelRun.check;

import dev.jobqueue.JobId;
import dev.jobqueue.it.AdminHttp;
import dev.jobqueue.it.model.ModelRows.Row;
import dev.jobqueue.it.model.ModelRows.Snapshot;
import dev.jobqueue.it.model.Step.Action;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Admin actions through {@code JobAdmin} or the REST API, and what each must do (docs/reference/admin-api.md,
 * "Retries and deletes"). Every REST answer is a 2xx, or a 4xx with a JQ code.
 */
final class AdminSteps {

    private static final String APP = "model";
    private static final Pattern COUNT = Pattern.compile("\"(count|retried|purged)\"\\s*:\\s*(\\d+)");
    private static final Pattern OUTCOME = Pattern.compile("\"outcome\"\\s*:\\s*\"(\\w+)\"");

    private final ModelRun run;

    AdminSteps(ModelRun run) {
        this.run = run;
    }

    void apply(Step.Admin step, Snapshot before) {
        List<String> ids = step.jobs().stream().map(run::id).filter(Objects::nonNull).distinct().toList();
        String q = step.queue();
        Integer count = null;
        switch (step.action()) {
            case RETRY_ONE, DELETE_ONE -> {
                if (ids.isEmpty()) {
                    return;
                }
                one(step, ids.get(0), before);
                return;
            }
            case CANCEL_ONE -> {
                if (!ids.isEmpty()) {
                    cancelOne(step, ids.get(0), before);
                }
                return;
            }
            case CANCEL_IDS -> count = ids.isEmpty() ? null : count(post("/jobs/cancel", idsJson(ids)));
            case CANCEL_FILTER -> count = count(post("/jobs/cancel-matching?queue=" + q + filter(step), null));
            case RETRY_IDS -> count = ids.isEmpty() ? null : count(post("/jobs/retry", idsJson(ids)));
            case DELETE_IDS -> count = ids.isEmpty() ? null : count(post("/jobs/delete", idsJson(ids)));
            case RETRY_FILTER -> count = count(post("/failed/retry?queue=" + q + filter(step), null));
            case DELETE_FILTER -> count = count(post("/failed/delete?queue=" + q + filter(step), null));
            case RETRY_QUEUE -> count = step.rest() ? count(post("/queues/" + q + "/retry-failed", null))
                    : run.s.admin().retryFailed(q);
            case PURGE -> count = step.rest() ? count(answer(() -> AdminHttp.delete(APP, "/queues/" + q
                    + "/failed?olderThan=0s"))) : run.s.admin().purgeFailed(q, Duration.ZERO);
            case PAUSE, RESUME -> {
                boolean pause = step.action() == Action.PAUSE;
                if (step.rest()) {
                    post("/queues/" + q + (pause ? "/pause" : "/resume"), null);
                } else if (pause) {
                    run.s.admin().pause(q);
                } else {
                    run.s.admin().resume(q);
                }
                if (pause) {
                    run.paused.add(q);
                } else {
                    run.paused.remove(q);
                }
            }
            case LIMITS -> {
                String rate = step.key() == null ? null : "1000/1s";
                Integer maxRunning = step.key() == null ? null : 2;
                if (step.rest()) {
                    answer(() -> AdminHttp.put(APP, "/queues/" + q + "/limits", "{\"rateLimit\":"
                            + (rate == null ? "null" : "\"" + rate + "\"") + ",\"maxRunning\":" + maxRunning + "}"));
                } else {
                    run.s.admin().setLimits(q, rate, maxRunning);
                }
            }
            default -> throw new IllegalArgumentException(step.toString());
        }
        run.last = run.s.rows().snapshot(run.s.clock().now());
        Snapshot after = run.last;
        List<Row> targets = switch (step.action()) {
            case RETRY_IDS, DELETE_IDS -> ids.stream().map(before::job).filter(Objects::nonNull).toList();
            case RETRY_FILTER, DELETE_FILTER -> failed(before, q).stream()
                    .filter(r -> step.key() == null || step.key().equals(r.key())).toList();
            case RETRY_QUEUE, PURGE -> failed(before, q);
            case CANCEL_IDS -> ids.stream().map(before::job).filter(Objects::nonNull).toList();
            case CANCEL_FILTER -> before.jobs().values().stream().filter(r -> r.queue().equals(q)
                    && (step.key() == null || step.key().equals(r.key()))).toList();
            default -> List.of();
        };
        switch (step.action()) {
            case RETRY_IDS -> checkRetry(targets, before, after, count, true);
            case RETRY_FILTER, RETRY_QUEUE -> checkRetry(targets, before, after, count, false);
            case CANCEL_IDS, CANCEL_FILTER -> checkCancel(targets, after, count);
            case DELETE_IDS, DELETE_FILTER, PURGE -> {
                List<Row> failed = targets.stream().filter(r -> r.state().equals("FAILED")).toList();
                failed.forEach(r -> check(after.job(r.id()) == null, "a bulk delete left " + r));
                check(count == null || count == failed.size(), "a bulk delete counted " + count + " of " + failed);
            }
            default -> {
                // pause, resume and limits change no job
            }
        }
    }

    private void one(Step.Admin step, String id, Snapshot before) {
        Row b = before.job(id);
        boolean retry = step.action() == Action.RETRY_ONE;
        String thrown = null;
        if (step.rest()) {
            HttpResponse<String> answer = retry ? post("/jobs/" + id + "/retry", null)
                    : answer(() -> AdminHttp.delete(APP, "/jobs/" + id));
            thrown = answer.statusCode() == 204 ? null : answer.body();
        } else if (retry) {
            try {
                thrown = run.s.admin().retry(JobId.parse(id)) ? null : "false";
            } catch (IllegalStateException e) {
                thrown = e.getMessage();
            }
        } else {
            thrown = run.s.admin().delete(JobId.parse(id)) ? null : "false";
        }
        run.last = run.s.rows().snapshot(run.s.clock().now());
        Row a = run.last.job(id);
        if (!retry) {
            check(a == null, "a delete left " + a);
            check((thrown == null) == (b != null), "a delete of " + b + " answered " + thrown);
            return;
        }
        if (b == null) {
            check(thrown != null, "a retry of a job that is gone answered as if it retried it");
        } else if (thrown == null) {
            checkRetry(List.of(b), before, run.last, step.rest() ? null : 1, true);
        } else {
            check(a != null && a.state().equals(b.state()) && a.attempts() == b.attempts(),
                    "a retry refused with " + thrown + " changed " + b + " to " + a);
            check(!b.ended() || reason(b, run.last) != null,
                    "a retry of " + b + " was refused without a reason: " + thrown);
        }
    }

    /**
     * One job cancelled through {@code JobAdmin.cancel} or {@code POST /jobs/{id}/cancel}: a job that has not
     * started becomes CANCELLED and the answer says so; any other is left as it was, with the answer of its state.
     */
    private void cancelOne(Step.Admin step, String id, Snapshot before) {
        Row b = before.job(id);
        String outcome;
        if (step.rest()) {
            HttpResponse<String> answer = post("/jobs/" + id + "/cancel", null);
            Matcher named = OUTCOME.matcher(answer.body());
            outcome = answer.statusCode() == 404 ? "NOT_FOUND" : named.find() ? named.group(1) : answer.body();
        } else {
            outcome = run.s.admin().cancel(JobId.parse(id)).name();
        }
        run.last = run.s.rows().snapshot(run.s.clock().now());
        Row a = run.last.job(id);
        String expected = b == null ? "NOT_FOUND" : b.unfinished() ? "CANCELLED" : "FINISHED";
        check(outcome.equals(expected), "a cancel of " + b + " answered " + outcome + ", not " + expected);
        checkCancel(b == null ? List.of() : List.of(b), run.last, null);
        check(b != null || a == null, "a cancel of a job that is gone made " + a);
    }

    /**
     * Every target that had not started is CANCELLED, with its attempts; every other is as it was; the count, if
     * any, is of the jobs cancelled.
     */
    private static void checkCancel(List<Row> targets, Snapshot after, Integer count) {
        int cancelled = 0;
        for (Row b : targets) {
            Row a = after.job(b.id());
            check(a != null, "a cancel deleted " + b);
            if (b.unfinished()) {
                cancelled++;
                check(a.state().equals("CANCELLED") && a.attempts() == b.attempts(), "a cancel made " + b + " " + a);
            } else {
                check(a.state().equals(b.state()), "a cancel changed " + b + ", which had finished, to " + a);
            }
        }
        check(count == null || count == cancelled, "a cancel counted " + count + " but cancelled " + cancelled);
    }

    /**
     * Every FAILED target, and every CANCELLED one if {@code cancelledToo}, is retried (PENDING, or WAITING for an
     * unfinished dependency, with no attempt) unless a job it waits for is FAILED or CANCELLED or another unfinished
     * job holds its dedupe key, after the action.
     */
    private static void checkRetry(List<Row> targets, Snapshot before, Snapshot after, Integer count,
            boolean cancelledToo) {
        int retried = 0;
        for (Row b : targets) {
            Row a = after.job(b.id());
            check(a != null, "a retry deleted " + b);
            if (!b.state().equals("FAILED") && !(cancelledToo && b.state().equals("CANCELLED"))) {
                check(a.state().equals(b.state()), "a retry changed " + b + ", which it does not take, to " + a);
                continue;
            }
            if (a.state().equals(b.state())) {
                String reason = reason(a, after);
                check(reason != null, "a retry passed over " + b + " without a reason: no dependency is FAILED"
                        + " and no other unfinished job holds its dedupe key");
                continue;
            }
            retried++;
            boolean waits = after.deps(b.id()).stream().map(after::job)
                    .anyMatch(d -> d != null && !d.state().equals("DONE"));
            check(a.attempts() == 0 && a.state().equals(waits ? "WAITING" : "PENDING"),
                    "a retried job " + b + " became " + a);
        }
        check(count == null || count == retried, "a retry counted " + count + " but retried " + retried);
    }

    /** Why a FAILED job may be passed over by a retry, or null. */
    private static String reason(Row job, Snapshot after) {
        if (after.deps(job.id()).stream().map(after::job).anyMatch(d -> d != null && d.ended())) {
            return "dependencyFailed";
        }
        boolean held = job.key() != null && after.jobs().values().stream().anyMatch(o -> !o.id().equals(job.id())
                && o.queue().equals(job.queue()) && job.key().equals(o.key()) && o.unfinished());
        return held ? "dedupeKeyHeld" : null;
    }

    private static List<Row> failed(Snapshot snapshot, String queue) {
        return snapshot.jobs().values().stream().filter(r -> r.queue().equals(queue) && r.state().equals("FAILED"))
                .toList();
    }

    private static String filter(Step.Admin step) {
        return step.key() == null ? "" : "&dedupeKey=" + step.key();
    }


    private static String idsJson(List<String> ids) {
        return ids.stream().map(id -> "\"" + id + "\"").collect(Collectors.joining(",", "{\"ids\":[", "]}"));
    }

    private static HttpResponse<String> post(String path, String json) {
        return answer(() -> json == null ? AdminHttp.post(APP, path) : AdminHttp.postJson(APP, path, json));
    }

    /** Calls the REST API: its answer is a 2xx, or a 4xx whose body names a JQ code. */
    private static HttpResponse<String> answer(Request request) {
        HttpResponse<String> answer;
        try {
            answer = request.send();
        } catch (Exception e) {
            throw new IllegalStateException("the admin API did not answer " + e, e);
        }
        int status = answer.statusCode();
        check(status / 100 == 2 || status / 100 == 4 && answer.body().contains("\"code\":\"JQ"),
                "the admin API answered " + answer.request().method() + " " + answer.uri() + " with " + status + " "
                        + answer.body());
        return answer;
    }

    private static Integer count(HttpResponse<String> answer) {
        Matcher count = COUNT.matcher(answer.body());
        return answer.statusCode() / 100 == 2 && count.find() ? Integer.valueOf(count.group(2)) : null;
    }

    private interface Request {
        HttpResponse<String> send() throws Exception;
    }
}
