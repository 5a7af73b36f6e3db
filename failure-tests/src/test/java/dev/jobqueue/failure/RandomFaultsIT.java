package dev.jobqueue.failure;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Two nodes (Liberty or WildFly, see {@link ServerNode}) on one database run a mixed workload for about three minutes
 * while faults drawn from a seed hit them: SIGSTOP of a node for longer than the lease, the database ending connections
 * in use, kill -9 and restart of a node, a database restart, while an operator retries and deletes FAILED jobs in bulk
 * and pauses queues through the admin API. Then the queue drains and {@link Invariants} checks, in the database, that
 * no guarantee broke. The seed is printed first and in every failure; {@code -Dfaults.seed=N} repeats a run's workload
 * and faults (their timing still depends on the machine).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RandomFaultsIT {

    /** As configured in the application's microprofile-config.properties. */
    private static final Duration LEASE = Duration.ofSeconds(6);
    /** The lease keeper runs every third of the lease. */
    private static final Duration KEEPER_PERIOD = LEASE.dividedBy(3);
    /** How long after a fault ends it may still cost a job an attempt; see {@link Invariants}. */
    private static final Duration GRACE = LEASE.plusSeconds(5);
    private static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(6);

    private final TestDatabase db = TestDatabase.fromSystemProperty();
    private final long seed = seed();
    private final Duration workload = Duration.ofSeconds(Long.getLong("faults.workload.seconds", 180));
    private ServerNode a;
    private ServerNode b;
    private FaultInjector injector;
    private long drainedAt;

    @BeforeAll
    void createCluster() throws Exception {
        System.out.println("RandomFaultsIT on " + ServerNode.where(db) + ": seed=" + seed
                + " (repeat with -Dfaults.seed=" + seed + ")");
        db.recreate();
        db.createApplicationTables();
        FaultTables.create(db);
        a = ServerNode.create("A", 9481, db);
        b = ServerNode.create("B", 9482, db);
        CompletableFuture<Void> startB = CompletableFuture.runAsync(() -> {
            try {
                b.start();
            } catch (Exception e) {
                throw new IllegalStateException("node B did not start", e);
            }
        });
        a.start();
        startB.join();
        warmUp();
    }

    /**
     * Runs a few hundred jobs through both nodes before the clock starts, then forgets them. A node that has just
     * started on a busy machine can take seconds to hand its first jobs a thread, and its lease keeper with them;
     * such a cold start is no fault of the run's, and its lost leases would count against the attempt bound.
     */
    private void warmUp() throws Exception {
        long started = System.currentTimeMillis();
        for (int round = 0; round < 3; round++) {
            for (ServerNode node : List.of(a, b)) {
                int from = 1_000_000 + round * 1_000 + (node == a ? 0 : 500);
                node.postOk("/chaos/rf/batch?kind=warmup&queue=rf-short&from=" + from + "&count=40&millis=5");
                node.postOk("/chaos/rf/batch?kind=warmup&queue=rf-plain&from=" + (from + 100) + "&count=40&millis=5");
            }
            Commands.awaitTrue(() -> {
                try {
                    return unfinished() == 0;
                } catch (SQLException e) {
                    return false;
                }
            }, Duration.ofMinutes(3), "the warm-up jobs to finish");
        }
        try (Connection connection = db.connect(); Statement sql = connection.createStatement()) {
            sql.execute("DELETE FROM rf_log");
            sql.execute("DELETE FROM rf_job");
            sql.execute("DELETE FROM jobqueue_job_error");
            sql.execute("DELETE FROM jobqueue_job");
        }
        System.out.println("warm-up: 480 jobs in " + (System.currentTimeMillis() - started) + "ms");
    }

    @AfterAll
    void stopCluster() throws Exception {
        if (injector != null) {
            injector.restore();
        } else if (!db.reachable()) {
            db.start();
        }
        for (ServerNode node : new ServerNode[] {a, b}) {
            if (node == null) {
                continue;
            }
            try {
                node.stop();
            } catch (IllegalStateException notRunning) {
                System.out.println("node " + node.label + ": " + notRunning.getMessage());
            }
        }
    }

    @Test
    void randomFaultsBreakNoGuarantee() throws Exception {
        long origin = System.currentTimeMillis();
        List<FaultPlan.Planned> plan = FaultPlan.of(seed, LEASE);
        injector = new FaultInjector(db, Map.of("A", a, "B", b), plan, origin);
        CompletableFuture<Void> faults = CompletableFuture.runAsync(() -> {
            try {
                injector.run(origin + workload.toMillis() - 5_000);
            } catch (Exception e) {
                throw new IllegalStateException("seed=" + seed + ": a fault could not be injected", e);
            }
        });
        Workload puts = new Workload(~seed, List.of(a, b), injector::available, (int) LEASE.plusSeconds(2).toMillis());
        List<String> violations = new ArrayList<>();
        long quietSince;
        int stalls;
        OperatorActions operator = new OperatorActions(seed * 31, db, List.of(a, b), injector::available);
        try (StallWatch watch = new StallWatch(db, List.of(a, b), injector, origin)) {
            try (operator) {
                puts.run(workload);
            }
            try {
                faults.join();
            } finally {
                injector.restore();
            }
            quietSince = System.currentTimeMillis();
            violations.addAll(puts.violations());
            violations.addAll(injector.violations());
            violations.addAll(drain(origin));
            stalls = watch.stalls();
        }
        Thread.sleep(3_000);  // GroupFinished is recorded just after the commit that finished the group

        List<FaultInjector.Injected> injected = injector.injected();
        Invariants invariants = new Invariants(db, injected, origin, LEASE, GRACE, operator.asked());
        invariants.check();
        violations.addAll(invariants.violations());

        Map<String, Long> byKind = injected.stream().collect(Collectors.groupingBy(f -> f.kind().label,
                TreeMap::new, Collectors.counting()));
        printSummary(byKind, invariants.counts(), puts, operator.actions(), stalls, violations.size(),
                drainedAt - quietSince);
        violations.forEach(violation -> System.out.println("VIOLATION seed=" + seed + ": " + violation));

        Map<String, Long> byTag = violations.stream().collect(Collectors.groupingBy(
                violation -> violation.substring(1, violation.indexOf(']')), TreeMap::new, Collectors.counting()));
        assertTrue(violations.isEmpty(), "seed=" + seed + " (repeat with -Dfaults.seed=" + seed + "): "
                + violations.size() + " violations " + byTag + "; the node logs are in " + a.logDir() + " and "
                + b.logDir() + "; the first ones:\n"
                + violations.stream().limit(40).collect(Collectors.joining("\n")));
        assertTrue(byKind.size() == FaultPlan.Kind.values().length,
                "seed=" + seed + ": every kind of fault was injected at least once: " + byKind);
    }

    private void printSummary(Map<String, Long> faults, Map<String, Long> counts, Workload puts,
            Map<String, Integer> operatorActions, int stalls, int violations, long drainMillis) {
        String requests = puts.requestsByKind().entrySet().stream()
                .map(kind -> kind.getKey() + ":" + kind.getValue()[1] + "/" + kind.getValue()[0])
                .collect(Collectors.joining(","));
        System.out.printf("SUMMARY %s scenario=random-faults seed=%d faults=%s %s requests-ok=%s operator=%s"
                + " stalls=%d violations=%d drained-after=%dms%n", ServerNode.where(db), seed,
                faults.entrySet().stream().map(e -> e.getKey() + ":" + e.getValue()).collect(Collectors.joining(",")),
                counts.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" ")),
                requests, new TreeMap<>(operatorActions).entrySet().stream().map(e -> e.getKey() + ":" + e.getValue())
                        .collect(Collectors.joining(",")), stalls, violations, drainMillis);
    }

    /**
     * Waits until no job of the run is PENDING, RUNNING or WAITING, for at most {@link #DRAIN_TIMEOUT}. Meanwhile no
     * fault is injected, so a RUNNING job's lease must be renewed or its job taken back within the lease keeper's
     * period: a lease expired longer ago than that, plus a lease's worth of slack for a loaded machine, is a
     * violation.
     */
    private List<String> drain(long origin) throws Exception {
        List<String> violations = new ArrayList<>();
        List<String> seenJobs = new ArrayList<>();
        Thread.sleep(GRACE.toMillis());  // the last fault's leases expire and are taken back
        long deadline = System.currentTimeMillis() + DRAIN_TIMEOUT.toMillis();
        while (true) {
            for (String expired : Invariants.runningWithExpiredLease(db, KEEPER_PERIOD.plus(LEASE), origin)) {
                String job = expired.split(" ")[1];
                if (!seenJobs.contains(job)) {
                    seenJobs.add(job);
                    violations.add("[expired-lease] " + expired
                            + ": no fault was injected then, so its lease should have been renewed,"
                            + " or the job taken back, within the lease keeper's period");
                }
            }
            long unfinished = unfinished();
            if (unfinished == 0) {
                drainedAt = System.currentTimeMillis();
                return violations;
            }
            if (System.currentTimeMillis() > deadline) {
                drainedAt = System.currentTimeMillis();
                violations.add("[not-drained] " + unfinished + " jobs were still unfinished " + DRAIN_TIMEOUT
                        + " after the workload and the faults ended");
                return violations;
            }
            Thread.sleep(1_000);
        }
    }

    private long unfinished() throws SQLException {
        try (Connection connection = db.connect();
             PreparedStatement query = connection.prepareStatement("SELECT COUNT(*) FROM jobqueue_job"
                     + " WHERE queue LIKE 'rf-%' AND state IN ('PENDING', 'RUNNING', 'WAITING')");
             ResultSet row = query.executeQuery()) {
            row.next();
            return row.getLong(1);
        }
    }

    private static long seed() {
        String given = System.getProperty("faults.seed", "");
        return given.isBlank() ? new SecureRandom().nextLong() & Long.MAX_VALUE : Long.parseLong(given.trim());
    }
}
