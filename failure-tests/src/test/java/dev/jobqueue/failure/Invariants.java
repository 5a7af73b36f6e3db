package dev.jobqueue.failure;

import dev.jobqueue.failure.app.FaultConsumers;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TimeZone;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What must hold after a random run, checked in the database once the queue has drained. Each broken invariant
 * adds a line to {@link #violations()} that names the job and what it saw; {@link #counts()} feeds the SUMMARY.
 *
 * <p>The attempt bound: a fault costs a job at most one attempt, and only if the job was unfinished while the
 * fault lasted or within {@code grace} after it (a restarted database's dead pooled connections fail the first
 * statements after it is back; a resumed node finds leases that expired while it slept). So a job may use
 * {@code 1 + planned + exposed} attempts, where {@code planned} is the failures its kind asks for (one for a
 * rollback-only first attempt, {@value FaultConsumers#DOOMED_ATTEMPTS} minus one for a doomed job) and
 * {@code exposed} counts the faults whose span, widened by one second before and {@code grace} after, overlaps
 * the span from the job's put to its end.
 *
 * <p>An operator's actions ({@link OperatorActions}) change what a job may end as: a job the operator asked to
 * delete may be gone, and a job it asked to retry, or whose ancestor it deleted, may end DONE or FAILED. Nothing
 * else bends: a DONE job still has exactly one effect, and a job whose parent is FAILED still never runs.
 */
final class Invariants {

    private record Job(String id, String queue, String state, int attempts, long createdAt, Long finishedAt,
            Long leaseExpiresAt, String orderingKey, String group, long seq, String lastError) {
    }

    private record Manifest(String id, String kind, int n, String queue, String expect, int planned, String parent) {
    }

    private record Log(long id, String jobId, int attempt, String node, String event, long at) {
    }

    private record GroupEvent(String group, long done, long failed, String node, long at) {
    }

    private final TestDatabase db;
    private final List<FaultInjector.Injected> faults;
    private final OperatorActions.Asked asked;
    private final long origin;
    private final long leaseMillis;
    private final long graceMillis;
    private final List<String> violations = new ArrayList<>();
    private final Map<String, Long> counts = new LinkedHashMap<>();

    private Map<String, Job> jobs;
    private Map<String, Manifest> manifest;
    private Map<String, List<Log>> logs;
    private Map<String, List<String>> errors;

    /**
     * @param origin when the run started, so that times are printed as seconds into the run
     * @param lease  the nodes' lease
     * @param grace  how long after a fault ends it may still cost a job an attempt
     * @param asked  what an operator asked for during the run
     */
    Invariants(TestDatabase db, List<FaultInjector.Injected> faults, long origin, Duration lease, Duration grace,
            OperatorActions.Asked asked) {
        this.db = db;
        this.faults = faults;
        this.asked = asked;
        this.origin = origin;
        this.leaseMillis = lease.toMillis();
        this.graceMillis = grace.toMillis();
    }

    /** The RUNNING jobs of the run whose lease expired more than {@code slack} ago, described. */
    static List<String> runningWithExpiredLease(TestDatabase db, Duration slack, long origin) throws SQLException {
        List<String> expired = new ArrayList<>();
        long now = System.currentTimeMillis();
        try (Connection connection = db.connect();
             PreparedStatement query = connection.prepareStatement("SELECT id, queue, attempts, lease_expires_at"
                     + " FROM jobqueue_job WHERE state = 'RUNNING'");
             ResultSet rows = query.executeQuery()) {
            while (rows.next()) {
                Long expires = millis(db, rows, 4);
                if (expires == null || expires < now - slack.toMillis()) {
                    expired.add("job " + rows.getString(1) + " on queue " + rows.getString(2) + " was RUNNING at "
                            + seconds(now, origin) + " (attempt " + rows.getInt(3) + ") with its lease expired at "
                            + (expires == null ? "(none)" : seconds(expires, origin)));
                }
            }
        }
        return expired;
    }

    void check() throws SQLException {
        load();
        checkManifest();
        checkEnds();
        checkEffects();
        checkAttempts();
        checkStaleStarts();
        checkDependents();
        checkGroups();
        checkOrder();
        checkRollbackOnlyAttempts();
        checkNoneWaitsOnFailedOrMissing();
    }

    List<String> violations() {
        return violations;
    }

    Map<String, Long> counts() {
        return counts;
    }

    private void load() throws SQLException {
        jobs = new LinkedHashMap<>();
        manifest = new HashMap<>();
        logs = new HashMap<>();
        errors = new HashMap<>();
        try (Connection connection = db.connect()) {
            try (PreparedStatement query = connection.prepareStatement("SELECT id, queue, state, attempts,"
                    + " created_at, finished_at, lease_expires_at, ordering_key, group_name, seq, last_error"
                    + " FROM jobqueue_job WHERE queue LIKE 'rf-%' ORDER BY seq");
                 ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    jobs.put(rows.getString(1), new Job(rows.getString(1), rows.getString(2), rows.getString(3),
                            rows.getInt(4), millis(db, rows, 5), millis(db, rows, 6), millis(db, rows, 7),
                            rows.getString(8), rows.getString(9), rows.getLong(10), rows.getString(11)));
                }
            }
            try (PreparedStatement query = connection.prepareStatement("SELECT job_id, kind, n, queue, expect,"
                    + " planned, parent FROM rf_job");
                 ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    manifest.put(rows.getString(1), new Manifest(rows.getString(1), rows.getString(2), rows.getInt(3),
                            rows.getString(4), rows.getString(5), rows.getInt(6), rows.getString(7)));
                }
            }
            try (PreparedStatement query = connection.prepareStatement("SELECT id, job_id, attempt, node, event,"
                    + " at_millis FROM rf_log ORDER BY id");
                 ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    logs.computeIfAbsent(rows.getString(2), id -> new ArrayList<>()).add(new Log(rows.getLong(1),
                            rows.getString(2), rows.getInt(3), rows.getString(4), rows.getString(5), rows.getLong(6)));
                }
            }
            try (PreparedStatement query = connection.prepareStatement("SELECT e.job_id, e.attempt, e.error"
                    + " FROM jobqueue_job_error e JOIN jobqueue_job j ON j.id = e.job_id WHERE j.queue LIKE 'rf-%'");
                 ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    errors.computeIfAbsent(rows.getString(1) + "#" + rows.getInt(2), key -> new ArrayList<>())
                            .add(rows.getString(3));
                }
            }
        }
        counts.put("jobs", (long) jobs.size());
    }

    /** A job exists if and only if its put committed, and its put wrote the manifest row in the same transaction. */
    private void checkManifest() {
        jobs.keySet().stream().filter(id -> !manifest.containsKey(id)).forEach(id ->
                violation("outbox", describe(jobs.get(id)) + " has no manifest row: it was written without its put's"
                        + " transaction"));
        manifest.keySet().stream().filter(id -> !jobs.containsKey(id) && !asked.deleted().contains(id)).forEach(id ->
                violation("outbox", "job " + id + " (" + manifest.get(id).kind()
                        + ") has a manifest row but no job row:"
                        + " a committed job was lost"));
        logs.keySet().stream().filter(id -> !manifest.containsKey(id)).forEach(id ->
                violation("outbox", "job " + id + " ran (" + logs.get(id) + ") but has no manifest row"));
    }

    /** Every committed job ended as its kind says: DONE, or FAILED when it or a job it waits for is doomed. */
    private void checkEnds() {
        long done = 0;
        long failed = 0;
        long lost = 0;
        for (Job job : jobs.values()) {
            Manifest expected = manifest.get(job.id());
            done += job.state().equals("DONE") ? 1 : 0;
            failed += job.state().equals("FAILED") ? 1 : 0;
            if (expected == null || job.state().equals(expected.expect())
                    || touchedByOperator(job.id()) && (job.state().equals("DONE") || job.state().equals("FAILED"))) {
                continue;
            }
            if (expected.expect().equals("DONE")) {
                lost++;
            }
            String lease = job.state().equals("RUNNING") ? ", its lease expires at " + (job.leaseExpiresAt() == null
                    ? "(none): RUNNING without a lease" : seconds(job.leaseExpiresAt(), origin)) : "";
            violation("end-state", describe(job) + " ended " + job.state() + ", not " + expected.expect() + lease
                    + (job.lastError() == null ? "" : "; last error: " + firstLine(job.lastError())));
        }
        counts.put("done", done);
        counts.put("failed", failed);
        counts.put("expected-failed", manifest.values().stream().filter(m -> m.expect().equals("FAILED")).count());
        counts.put("lost", lost);
    }

    /**
     * A transactional job's effect is written in the transaction that marks it DONE: exactly one for a DONE job,
     * none for a FAILED one. A non-transactional job runs at least once: at least one effect, at most one per
     * start.
     */
    private void checkEffects() {
        long duplicates = 0;
        long plainReruns = 0;
        for (Job job : jobs.values()) {
            List<Log> log = logs.getOrDefault(job.id(), List.of());
            long effects = log.stream().filter(row -> row.event().equals("effect")).count();
            long starts = log.stream().filter(row -> row.event().equals("start")).count();
            if (job.queue().equals("rf-plain")) {
                plainReruns += Math.max(0, effects - 1);
                if (job.state().equals("DONE") && (effects < 1 || effects > starts)) {
                    violation("effects", describe(job) + " is DONE with " + effects + " effects from " + starts
                            + " starts; a non-transactional job has at least one, and at most one per start");
                }
                continue;
            }
            long expected = job.state().equals("DONE") ? 1 : 0;
            duplicates += Math.max(0, effects - 1);
            if ((job.state().equals("DONE") || job.state().equals("FAILED")) && effects != expected) {
                violation("effects", describe(job) + " is " + job.state() + " with " + effects + " effect rows, not "
                        + expected + "; log: " + timeline(log));
            }
        }
        counts.put("duplicates", duplicates);
        counts.put("plain-reruns", plainReruns);
    }

    /** No job used more attempts than the faults that overlapped it and its planned failures explain. */
    private void checkAttempts() {
        long over = 0;
        long extra = 0;
        long now = System.currentTimeMillis();
        for (Job job : jobs.values()) {
            Manifest expected = manifest.get(job.id());
            int planned = expected == null ? 0 : expected.planned();
            long end = job.finishedAt() == null ? now : job.finishedAt();
            List<FaultInjector.Injected> exposed = faults.stream()
                    .filter(fault -> fault.startMillis() - 1_000 <= end
                            && fault.endMillis() + graceMillis >= job.createdAt())
                    .toList();
            // An operator's bulk transaction can be chosen as a deadlock's victim's partner on MariaDB, and cost a
            // job that finishes at that moment an attempt, as a fault can.
            long bulkActions = asked.actions().stream()
                    .filter(action -> action[0] - 1_000 <= end && action[1] + 1_000 >= job.createdAt()).count();
            int bound = 1 + planned + exposed.size() + (int) bulkActions;
            extra += Math.max(0, job.attempts() - 1 - planned);
            if (job.attempts() > bound) {
                over++;
                List<Integer> which = exposed.stream().map(fault -> fault.planned().index()).toList();
                violation("attempts", describe(job) + " used " + job.attempts() + " attempts; the bound is 1 + "
                        + planned + " planned + " + exposed.size() + " faults " + which + " + " + bulkActions
                        + " operator actions = " + bound
                        + "; put at " + seconds(job.createdAt(), origin)
                        + ", ended at " + seconds(end, origin) + "; log: " + timeline(logs.getOrDefault(job.id(),
                        List.of())) + (job.lastError() == null ? "" : "; last error: " + firstLine(job.lastError())));
            }
        }
        counts.put("extra-attempts", extra);
        counts.put("over-bound", over);
    }

    /**
     * An attempt starts only on a lease it still holds. Once a later attempt of the job has started, every earlier
     * attempt's lease was taken back, and none of them may start any more: a buffered claim whose lease lapsed
     * must be given back, not run. A pause of the node can fall between an attempt's check of its lease and its
     * start log, so a pause of that node near the two starts excuses one.
     */
    private void checkStaleStarts() {
        long stale = 0;
        for (List<Log> log : logs.values()) {
            if (asked.retried().contains(log.get(0).jobId())) {
                continue;  // a retry starts its attempts from one again
            }
            Log newest = null;
            for (Log start : log.stream().filter(row -> row.event().equals("start")).toList()) {
                if (newest != null && start.attempt() < newest.attempt()) {
                    Log later = newest;
                    boolean paused = faults.stream().anyMatch(fault -> fault.kind() == FaultPlan.Kind.PAUSE
                            && fault.planned().node().equals(start.node()) && fault.startMillis() <= start.at()
                            && fault.endMillis() >= later.at() - leaseMillis - 2_000);
                    if (!paused) {
                        stale++;
                        Job job = jobs.get(start.jobId());
                        violation("stale-start", (job == null ? "job " + start.jobId() : describe(job)) + ": attempt "
                                + start.attempt() + " started on node " + start.node() + " at "
                                + seconds(start.at(), origin) + ", after attempt " + later.attempt() + " had started on"
                                + " node " + later.node() + " at " + seconds(later.at(), origin) + ", so on a lease"
                                + " already taken back; log: " + timeline(log));
                    }
                }
                if (newest == null || start.attempt() > newest.attempt()) {
                    newest = start;
                }
            }
        }
        counts.put("stale-starts", stale);
    }

    /** Whether an operator asked to retry the job, or to delete one it waits for, directly or through others. */
    private boolean touchedByOperator(String id) {
        if (asked.retried().contains(id)) {
            return true;
        }
        for (Manifest job = manifest.get(id); job != null && job.parent() != null; job = manifest.get(job.parent())) {
            if (asked.deleted().contains(job.parent())) {
                return true;
            }
        }
        return false;
    }

    /**
     * No job waits for a job that is FAILED, or gone: it would wait for ever. The first fails its dependents, and
     * a gone one counts as DONE; every operator path that retries or deletes keeps that so.
     */
    private void checkNoneWaitsOnFailedOrMissing() throws SQLException {
        try (Connection connection = db.connect();
             PreparedStatement query = connection.prepareStatement("SELECT j.id, d.depends_on, p.state"
                     + " FROM jobqueue_job j JOIN jobqueue_job_dependency d ON d.job_id = j.id"
                     + " LEFT JOIN jobqueue_job p ON p.id = d.depends_on"
                     + " WHERE j.state = 'WAITING' AND (p.id IS NULL OR p.state = 'FAILED')");
             ResultSet rows = query.executeQuery()) {
            while (rows.next()) {
                violation("waiting-on-failed", "job " + rows.getString(1) + " is WAITING on job " + rows.getString(2)
                        + ", which is " + (rows.getString(3) == null ? "gone" : rows.getString(3).trim())
                        + ": it would wait for ever");
            }
        }
    }

    /**
     * A job put after another runs only once that one is DONE (its first start is logged after the other's
     * effect), and becomes FAILED, naming it, when that one is FAILED.
     */
    private void checkDependents() {
        long dependents = 0;
        for (Manifest child : manifest.values()) {
            if (child.parent() == null || !jobs.containsKey(child.id())) {
                continue;
            }
            dependents++;
            Job job = jobs.get(child.id());
            Job parent = jobs.get(child.parent());
            if (parent == null) {
                continue;
            }
            List<Log> starts = logs.getOrDefault(child.id(), List.of()).stream()
                    .filter(row -> row.event().equals("start")).toList();
            if (parent.state().equals("FAILED")) {
                if (!job.state().equals("FAILED") || !starts.isEmpty() || !namesAncestor(child, job.lastError())) {
                    violation("dependency", describe(job) + " waits for FAILED " + describe(parent) + " but is "
                            + job.state() + " after " + starts.size() + " starts, with last error " + job.lastError()
                            + "; it must be FAILED, never run, and name the failed job it waited for, directly or"
                            + " through others");
                }
                continue;
            }
            Log parentEffect = logs.getOrDefault(parent.id(), List.of()).stream()
                    .filter(row -> row.event().equals("effect")).findFirst().orElse(null);
            if (parentEffect != null && !starts.isEmpty() && starts.get(0).id() < parentEffect.id()) {
                violation("dependency", describe(job) + " started (" + timeline(starts)
                        + ") before the job it waits for, "
                        + describe(parent) + ", wrote its effect at " + seconds(parentEffect.at(), origin));
            }
        }
        counts.put("dependents", dependents);
    }

    /**
     * A group put in one transaction is finished once: exactly one GroupFinished, with the group's DONE and FAILED
     * counts. None is allowed only if a kill or a database fault came within seconds of the group's last
     * finish: the event is fired after the commit, in memory, and a node killed in between never fires it.
     */
    private void checkGroups() throws SQLException {
        Map<String, List<GroupEvent>> events = new TreeMap<>();
        try (Connection connection = db.connect();
             PreparedStatement query = connection.prepareStatement("SELECT grp, done, failed, node, at_millis"
                     + " FROM rf_group_event");
             ResultSet rows = query.executeQuery()) {
            while (rows.next()) {
                events.computeIfAbsent(rows.getString(1), group -> new ArrayList<>()).add(new GroupEvent(
                        rows.getString(1), rows.getLong(2), rows.getLong(3), rows.getString(4), rows.getLong(5)));
            }
        }
        Map<String, List<Job>> groups = jobs.values().stream().filter(job -> job.group() != null)
                .collect(Collectors.groupingBy(Job::group, TreeMap::new, Collectors.toList()));
        long lostToFaults = 0;
        for (Map.Entry<String, List<Job>> group : groups.entrySet()) {
            List<GroupEvent> fired = events.getOrDefault(group.getKey(), List.of());
            long done = group.getValue().stream().filter(job -> job.state().equals("DONE")).count();
            long failed = group.getValue().stream().filter(job -> job.state().equals("FAILED")).count();
            long last = group.getValue().stream().map(Job::finishedAt).filter(at -> at != null)
                    .max(Long::compare).orElse(0L);
            if (fired.isEmpty() && done + failed == group.getValue().size() && faultNear(last)) {
                lostToFaults++;
                System.out.println("group " + group.getKey() + " finished at " + seconds(last, origin)
                        + " without a GroupFinished; a kill or database fault came within seconds of it");
                continue;
            }
            if (fired.size() != 1) {
                violation("group-finished", "group " + group.getKey() + " (" + done + " DONE, " + failed
                        + " FAILED, last finished"
                        + " at " + seconds(last, origin) + ") fired GroupFinished " + fired.size() + " times: "
                        + fired.stream().map(e -> e.node() + " at " + seconds(e.at(), origin) + " done=" + e.done()
                        + " failed=" + e.failed()).toList());
            } else if (fired.get(0).done() != done || fired.get(0).failed() != failed) {
                violation("group-finished", "group " + group.getKey() + " has " + done + " DONE and " + failed
                        + " FAILED jobs,"
                        + " but its GroupFinished said " + fired.get(0).done() + " and " + fired.get(0).failed());
            }
        }
        events.keySet().stream().filter(group -> !groups.containsKey(group)).forEach(group ->
                violation("group-finished", "GroupFinished fired for " + group + ", which has no jobs"));
        counts.put("groups", (long) groups.size());
        counts.put("group-events", events.values().stream().mapToLong(List::size).sum());
        counts.put("group-events-lost-to-kill", lostToFaults);
    }

    /**
     * Jobs of an ordering key run one at a time in the order they were put: no attempt of a job starts before the
     * job put before it wrote its effect, which it does in the transaction that marks it DONE.
     */
    private void checkOrder() {
        Map<String, List<Job>> keys = jobs.values().stream().filter(job -> job.orderingKey() != null)
                .collect(Collectors.groupingBy(job -> job.queue() + "/" + job.orderingKey(), TreeMap::new,
                        Collectors.toList()));
        for (Map.Entry<String, List<Job>> key : keys.entrySet()) {
            List<Job> inOrder = key.getValue().stream().sorted(Comparator.comparingLong(Job::seq)).toList();
            for (int i = 1; i < inOrder.size(); i++) {
                Job before = inOrder.get(i - 1);
                Job job = inOrder.get(i);
                Log effect = logs.getOrDefault(before.id(), List.of()).stream()
                        .filter(row -> row.event().equals("effect")).findFirst().orElse(null);
                List<Log> early = logs.getOrDefault(job.id(), List.of()).stream()
                        .filter(row -> row.event().equals("start") && (effect == null || row.id() < effect.id()))
                        .toList();
                if (!early.isEmpty()) {
                    violation("ordering", "ordering key " + key.getKey() + ": " + describe(job) + " started ("
                            + timeline(early) + ") before " + describe(before) + ", put before it, "
                            + (effect == null ? "wrote an effect" : "wrote its effect at " + seconds(effect.at(),
                            origin)));
                }
            }
        }
        counts.put("ordering-keys", (long) keys.size());
        counts.put("ordered-jobs", keys.values().stream().mapToLong(List::size).sum());
    }

    /**
     * An attempt whose consumer marked its transaction rollback-only and returned normally failed: jobqueue
     * records it as a failed attempt whose error says so. A fault within seconds of the marker may keep the error
     * from being written (the attempt then runs out its lease), so such markers are not checked.
     */
    private void checkRollbackOnlyAttempts() {
        long markers = 0;
        long unchecked = 0;
        for (List<Log> log : logs.values()) {
            for (Log marker : log.stream().filter(row -> row.event().equals("rollback")).toList()) {
                markers++;
                boolean faultNear = faults.stream().anyMatch(fault -> fault.reaches(marker.node())
                        && fault.startMillis() - 1_000 <= marker.at() + 5_000
                        && fault.endMillis() >= marker.at() - 1_000);
                if (faultNear) {
                    unchecked++;
                    continue;
                }
                List<String> recorded = errors.getOrDefault(marker.jobId() + "#" + marker.attempt(), List.of());
                boolean named = recorded.stream()
                        .anyMatch(error -> error.toLowerCase(Locale.ROOT).contains("rollback"));
                if (!named) {
                    Job job = jobs.get(marker.jobId());
                    violation("rollback-only", (job == null ? "job " + marker.jobId() : describe(job)) + ": attempt "
                            + marker.attempt() + " on node " + marker.node() + " marked its transaction rollback-only"
                            + " at " + seconds(marker.at(), origin) + " and returned, but "
                            + (recorded.isEmpty() ? "no failed attempt was recorded (it was taken for DONE)"
                                    : "its recorded error does not say so: " + firstLine(recorded.get(0)))
                            + "; log: " + timeline(log));
                }
            }
        }
        counts.put("rollback-only-attempts", markers);
        counts.put("rollback-only-unchecked", unchecked);
    }

    /** Whether {@code error} names a job that {@code job} waits for, directly or through the jobs that wait. */
    private boolean namesAncestor(Manifest job, String error) {
        for (Manifest ancestor = manifest.get(job.parent()); ancestor != null && error != null;
                ancestor = ancestor.parent() == null ? null : manifest.get(ancestor.parent())) {
            if (error.contains(ancestor.id())) {
                return true;
            }
        }
        return false;
    }

    private void violation(String tag, String text) {
        violations.add("[" + tag + "] " + text);
    }

    private boolean faultNear(long millis) {
        return faults.stream().anyMatch(fault -> fault.kind() != FaultPlan.Kind.PAUSE
                && fault.startMillis() <= millis + 5_000 && fault.endMillis() >= millis - 2_000);
    }

    private String describe(Job job) {
        Manifest expected = manifest.get(job.id());
        return "job " + job.id() + " (" + (expected == null ? "?" : expected.kind() + " n=" + expected.n()) + ", "
                + job.queue() + ", " + job.state() + ", " + job.attempts() + " attempts)";
    }

    private String timeline(List<Log> log) {
        return log.stream().map(row -> row.event() + " " + row.node() + "#" + row.attempt() + "@"
                + seconds(row.at(), origin)).collect(Collectors.joining(", ", "[", "]"));
    }

    static String seconds(long millis, long origin) {
        return String.format(Locale.ROOT, "%.1fs", (millis - origin) / 1e3);
    }

    private static String firstLine(String text) {
        int end = text.indexOf('\n');
        return end < 0 ? text : text.substring(0, end);
    }

    /** Reads a timestamp as jobqueue writes it: with a time zone on PostgreSQL, as UTC in MariaDB's DATETIME. */
    private static Long millis(TestDatabase db, ResultSet row, int index) throws SQLException {
        if (db == TestDatabase.POSTGRESQL) {
            OffsetDateTime value = row.getObject(index, OffsetDateTime.class);
            return value == null ? null : value.toInstant().toEpochMilli();
        }
        Timestamp value = row.getTimestamp(index, Calendar.getInstance(TimeZone.getTimeZone("UTC")));
        return value == null ? null : value.getTime();
    }
}
