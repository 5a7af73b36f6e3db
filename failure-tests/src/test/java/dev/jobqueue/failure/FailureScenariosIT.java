package dev.jobqueue.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer.OrderAnnotation;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Two servers, separate processes on ports 9481 and 9482, share one database: Liberty, or WildFly with
 * {@code -Dfailure.server=wildfly} (see {@link ServerNode}). Each scenario puts jobs through the nodes' own HTTP
 * endpoints, does something production does to a cluster, waits for the queue to drain, and then counts, in the
 * database, what ran and what it wrote. Each prints a SUMMARY line.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(OrderAnnotation.class)
class FailureScenariosIT {

    /** As configured in the application's microprofile-config.properties. */
    private static final Duration LEASE = Duration.ofSeconds(6);
    private static final Duration POLL_INTERVAL = Duration.ofSeconds(3);
    private static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(5);
    /**
     * A dead node's jobs are taken back once their leases have been seen expired in two rounds of a lease keeper,
     * which starts one every third of the lease; a second more for the rescuing round's own statements (it reads
     * the clock and renews before it takes back), which took half a second on WildFly with two servers busy on
     * two cores, and a second for the claim.
     */
    private static final Duration RECOVERY_BOUND = LEASE.plus(LEASE.dividedBy(3).multipliedBy(2)).plusSeconds(2);
    /** The lease of queue long-lease. */
    private static final Duration LONG_LEASE = Duration.ofMinutes(5);

    private final TestDatabase db = TestDatabase.fromSystemProperty();
    private final Ledger ledger = new Ledger(db);
    private ServerNode a;
    private ServerNode b;

    @BeforeAll
    void createCluster() throws Exception {
        db.recreate();
        db.createApplicationTables();
        a = ServerNode.create("A", 9481, db);
        b = ServerNode.create("B", 9482, db);
    }

    @Test
    @Order(0)
    void withoutItsTablesTheApplicationDoesNotStartAndTheErrorNamesTheScript() throws Exception {
        a.createSchema(false);
        long from = 0;
        a.startServer();
        String script = "META-INF/jobqueue/schema/" + db.schemaName() + ".sql";
        Commands.awaitTrue(() -> logged(a, from, "JQ030"), Duration.ofMinutes(3), "the schema error");
        String error = a.logBetween(from, a.logSize()).stream().filter(line -> line.contains("JQ030")).findFirst()
                .orElseThrow();
        System.out.println("node A without the schema: " + error);
        assertTrue(error.contains(script), "the error names the script " + script + ": " + error);
        assertTrue(!a.ready(), "the application does not serve requests");
        a.stop();

        // Both at once, as a deployment starts them: both run the schema script.
        a.createSchema(true);
        CompletableFuture<Void> startB = CompletableFuture.runAsync(() -> startQuietly(b));
        a.start();
        startB.join();
    }

    @AfterAll
    void stopCluster() throws Exception {
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
    @Order(1)
    void twoNodesShareTwentyThousandJobsAndRunEachOnce() throws Exception {
        db.clear();
        int total = 20_000;
        long started = System.nanoTime();
        putWork(total, 1);
        awaitDrained(total);
        double seconds = (System.nanoTime() - started) / 1e9;

        Map<String, List<Ledger.Start>> starts = ledger.starts();
        long ranTwice = starts.values().stream().filter(list -> list.size() > 1).count();
        Map<String, Long> byNode = ledger.effectsByNode(0);
        summary("two-nodes", total, "ran-twice=" + ranTwice + " node-A=" + byNode.get("A") + " node-B="
                + byNode.get("B") + String.format(" seconds=%.1f", seconds));

        assertEquals(total, starts.size(), "every job started");
        assertEquals(0, ranTwice, "with no failure injected, no job runs twice");
        assertEquals(total, ledger.effects(), "one effect per job");
        for (String node : List.of("A", "B")) {
            assertTrue(byNode.getOrDefault(node, 0L) > total / 5, "node " + node + " did its share: " + byNode);
        }
    }

    @Test
    @Order(2)
    void killNineMidRunLosesNothingAndRerunsOnlyTheKilledNodesJobs() throws Exception {
        db.clear();
        int total = 10_000;
        // Put through A while both nodes run them, so that the kill comes at 1,000 done however fast the puts go:
        // on WildFly the puts once took as long as the jobs, and every job was done before the kill.
        CompletableFuture<Void> puts = CompletableFuture.runAsync(() -> postQuietly(a,
                "/chaos/work?from=0&count=" + total + "&perTransaction=100&millis=25"));
        Commands.awaitTrue(() -> doneAtLeast(1_000), Duration.ofMinutes(2), "1,000 jobs to finish");

        b.kill();
        long killedAt = System.nanoTime();
        long killedAtMillis = System.currentTimeMillis();
        long doneAtKill = ledger.done();
        Map<String, Integer> inFlight = ledger.running();
        Commands.awaitTrue(() -> recovered(inFlight), DRAIN_TIMEOUT, "the killed node's jobs to be claimed again");
        Duration recovery = Duration.ofNanos(System.nanoTime() - killedAt);
        long doneAtRecovery = ledger.done();

        b.start();
        puts.join();
        awaitDrained(total);

        Map<String, List<Ledger.Start>> starts = ledger.starts();
        Map<String, List<Ledger.Start>> ranTwice = starts.entrySet().stream()
                .filter(job -> job.getValue().size() > 1)
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        summary("kill-9", total, "running-at-kill=" + inFlight.size() + " ran-twice=" + ranTwice.size()
                + " done-at-kill=" + doneAtKill + " done-at-recovery=" + doneAtRecovery + " recovery=" + recovery.toMillis() + "ms bound="
                + RECOVERY_BOUND.toMillis() + "ms");

        // At the kill, not at recovery: the other node may well finish the rest while the dead one's leases run out.
        assertTrue(doneAtKill < total, "the kill came while jobs were still to run");
        assertTrue(recovery.compareTo(RECOVERY_BOUND) <= 0,
                "the dead node's jobs are claimed again within lease + two lease-keeper periods + 2 s, took " + recovery);
        assertEquals(total, ledger.effects(), "one effect per job: the killed attempts rolled back");
        for (Map.Entry<String, List<Ledger.Start>> job : ranTwice.entrySet()) {
            boolean runningAtKill = inFlight.containsKey(job.getKey());
            boolean firstOnB = job.getValue().get(0).node().equals("B");
            if (!runningAtKill || !firstOnB) {
                fail("job " + job.getKey() + " ran twice but " + (runningAtKill ? "first on node A" : "was not RUNNING"
                        + " at the kill") + "; B was killed at " + killedAtMillis + ", starts: " + job.getValue()
                        + ", logged: " + a.linesMentioning(job.getKey()) + b.linesMentioning(job.getKey()));
            }
        }
    }

    @Test
    @Order(3)
    void databaseOutageFailsPutsCleanlyAndEveryCommittedJobRuns() throws Exception {
        db.clear();
        int backlog = 3_000;
        putWork(backlog, 10);
        Set<Integer> acknowledged = ConcurrentHashMap.newKeySet();
        Set<Integer> refused = ConcurrentHashMap.newKeySet();
        AtomicBoolean ordering = new AtomicBoolean(true);
        CompletableFuture<Void> orders = CompletableFuture.runAsync(() -> placeOrders(ordering, acknowledged, refused));

        Thread.sleep(3_000);
        long logA = a.logSize();
        long logB = b.logSize();
        long quietA;
        long quietB;
        List<String> quietWindowA;
        List<String> quietWindowB;
        long outage;
        long restartedAt;
        List<HttpResponse<String>> healthDuringOutage;
        db.stop();
        long stoppedAt = System.nanoTime();
        try {
            Thread.sleep(10_000);
            quietA = a.logSize();
            quietB = b.logSize();
            Thread.sleep(20_000);
            quietWindowA = a.logBetween(quietA, a.logSize());
            quietWindowB = b.logBetween(quietB, b.logSize());
            // 30 s into the outage, ten lease-keeper periods: the nodes are alive, and not ready.
            healthDuringOutage = List.of(a.health("live"), b.health("live"), a.health("ready"), b.health("ready"));
        } finally {
            db.start();
            restartedAt = System.currentTimeMillis();
            outage = (System.nanoTime() - stoppedAt) / 1_000_000;
        }
        Thread.sleep(5_000);
        ordering.set(false);
        orders.join();
        awaitDrained(-1);

        Set<Integer> saved = ledger.orders();
        long jobs = ledger.jobs();
        summary("db-outage", jobs, "outage=" + outage + "ms orders-acknowledged=" + acknowledged.size()
                + " orders-refused=" + refused.size() + " refused-but-saved="
                + refused.stream().filter(saved::contains).count());

        assertEquals(List.of(200, 200, 503, 503), healthDuringOutage.stream().map(HttpResponse::statusCode).toList(),
                () -> "during the outage /health/live is UP on A and B, and /health/ready is DOWN; they answered "
                        + healthDuringOutage.stream().map(HttpResponse::body).toList());
        assertTrue(refused.size() > 0, "puts during the outage fail for their caller");
        assertTrue(saved.containsAll(acknowledged), "every acknowledged order was saved");
        assertEquals(saved, ledger.orderEffects(), "an order is saved if and only if its job ran: nothing half-written");
        assertEquals(jobs, ledger.effects(), "one effect per job");
        Map<String, Long> afterRestart = ledger.effectsByNode(restartedAt);
        assertTrue(afterRestart.getOrDefault("A", 0L) > 0 && afterRestart.getOrDefault("B", 0L) > 0,
                "both nodes work after the database is back: " + afterRestart);
        assertOutageLoggedOnce(a, a.logBetween(logA, a.logSize()), quietWindowA);
        assertOutageLoggedOnce(b, b.logBetween(logB, b.logSize()), quietWindowB);
    }

    @Test
    @Order(4)
    void aNodeKilledAndRestartedTakesBackItsOwnJobsAtOnceNotWhenTheirLeasesExpire() throws Exception {
        db.clear();
        a.stop(); // B alone runs the jobs: only its own restart can bring them back before their leases expire
        try {
            int total = 40;
            b.postOk("/chaos/queue?name=long-lease&count=" + total + "&millis=3000");
            Commands.awaitTrue(() -> runningAtLeast(4), Duration.ofMinutes(1), "node B to run four jobs");
            b.kill();
            Map<String, String> heldAtKill = ledger.leases();
            long restarting = System.nanoTime();
            b.start();
            Duration restart = Duration.ofNanos(System.nanoTime() - restarting);
            // Taken back: no job is held by the killed run's lease any more. When they run again depends on when
            // a runner is free, behind the 3 s jobs the restarted node started meanwhile.
            Commands.awaitTrue(() -> released(heldAtKill), Duration.ofSeconds(90),
                    "node B to take back the jobs it held when it was killed");
            Duration recovery = Duration.ofNanos(System.nanoTime() - restarting);
            awaitDrained(total);
            summary("restart", total, "running-at-kill=" + heldAtKill.size() + " restart=" + restart.toMillis()
                    + "ms taken-back=" + recovery.toMillis() + "ms lease=" + LONG_LEASE.toMillis() + "ms");

            assertTrue(recovery.compareTo(restart.plusSeconds(20)) <= 0, "the restarted node took back its jobs"
                    + " within 20 s of starting, not after their " + LONG_LEASE + " leases: " + recovery);
            assertEquals(total, ledger.effects(), "one effect per job");
        } finally {
            a.start();
        }
    }

    @Test
    @Order(5)
    void aScheduleFiringEverySecondPutsOneJobPerOccurrenceWhileANodeIsKilledAndRestarted() throws Exception {
        db.clear();
        long saved = System.currentTimeMillis() / 1000;
        a.postOk("/chaos/schedule?name=every-second&cron=*+*+*+*+*+*");
        Thread.sleep(20_000);
        b.kill();
        long killed = System.currentTimeMillis() / 1000;
        Thread.sleep(5_000);
        b.start();
        long restarted = System.currentTimeMillis() / 1000;
        Thread.sleep(Math.max(0, (saved + 60) * 1000 - System.currentTimeMillis()));
        a.postOk("/chaos/schedule/delete?name=every-second");
        long deleted = System.currentTimeMillis() / 1000;
        awaitDrained(-1);

        // Check against the cron: every second from the first occurrence to the last has exactly one job.
        List<Long> effects = ledger.effectNumbers("recurring");
        long[] jobsAndKeys = ledger.jobsAndKeys("recurring");
        long first = effects.get(0);
        long last = effects.get(effects.size() - 1);
        long expected = last - first + 1;
        long occurrences = effects.stream().distinct().count();
        long duplicated = (jobsAndKeys[0] - jobsAndKeys[1]) + (effects.size() - occurrences);
        long missed = expected - occurrences;
        System.out.printf("SUMMARY %s scenario=recurring-kill-9 occurrences-expected=%d put=%d duplicated=%d"
                + " missed=%d first=+%ds last=+%ds killed=+%ds restarted=+%ds deleted=+%ds%n", ServerNode.where(db),
                expected, jobsAndKeys[1], duplicated, missed, first - saved, last - saved, killed - saved,
                restarted - saved, deleted - saved);

        assertEquals(0, duplicated, "no occurrence has two jobs or two effects");
        assertEquals(0, missed, "no occurrence between the first and the last is missing");
        assertEquals(expected, jobsAndKeys[1], "one job per occurrence");
        assertTrue(first <= saved + 2, "the first occurrence is the first second after the schedule was made: +"
                + (first - saved) + "s");
        assertTrue(last >= deleted - 2 && expected >= 55, "it fired until it was deleted: " + expected
                + " occurrences, the last at +" + (last - saved) + "s, deleted at +" + (deleted - saved) + "s");
    }

    private void putWork(int total, int millis) throws Exception {
        int half = total / 2;
        CompletableFuture<Void> fromB = CompletableFuture.runAsync(() -> postQuietly(b,
                "/chaos/work?from=" + half + "&count=" + (total - half) + "&perTransaction=100&millis=" + millis));
        a.postOk("/chaos/work?from=0&count=" + half + "&perTransaction=100&millis=" + millis);
        fromB.join();
    }

    /** One order a request, alternating between the nodes, until told to stop. */
    private void placeOrders(AtomicBoolean ordering, Set<Integer> acknowledged, Set<Integer> refused) {
        for (int n = 0; ordering.get(); n++) {
            ServerNode node = n % 2 == 0 ? a : b;
            try {
                HttpResponse<String> response = node.post("/chaos/order?n=" + n, Duration.ofSeconds(10));
                (response.statusCode() == 200 ? acknowledged : refused).add(n);
                Thread.sleep(20);
            } catch (IOException e) {
                refused.add(n);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Waits until every job in the table is DONE and, unless {@code expected} is negative, there are that many. */
    private void awaitDrained(long expected) throws InterruptedException {
        Commands.awaitTrue(() -> {
            try {
                long jobs = ledger.jobs();
                return (expected < 0 || jobs == expected) && ledger.done() == jobs;
            } catch (java.sql.SQLException e) {
                return false;
            }
        }, DRAIN_TIMEOUT, "every job to be DONE");
    }

    /**
     * Each background task logs the outage once, and the pollers and the lease keeper, which run every few
     * seconds, log their recovery once. While the database stays down the node is quiet: no task retries through
     * Hibernate, which would log every failed statement.
     */
    private static void assertOutageLoggedOnce(ServerNode node, List<String> outageLog, List<String> quietWindow) {
        Map<String, Long> failures = tasks(outageLog, "cannot use the database");
        Map<String, Long> recoveries = tasks(outageLog, "uses the database again");
        System.out.println("node " + node.label + ": outage logged by " + failures + ", recovery logged by "
                + recoveries);
        assertTrue(failures.keySet().stream().anyMatch(task -> task.startsWith("the poller of queue")),
                "node " + node.label + "'s pollers noticed the outage");
        assertTrue(failures.containsKey("the lease keeper"), "node " + node.label + "'s lease keeper noticed it");
        failures.forEach((task, times) -> assertEquals(1, times, "node " + node.label + ": " + task
                + " logs the outage once"));
        failures.keySet().stream().filter(task -> task.startsWith("the poller") || task.equals("the lease keeper"))
                .forEach(task -> assertEquals(1, recoveries.getOrDefault(task, 0L),
                        "node " + node.label + ": " + task + " logs its recovery once"));
        recoveries.forEach((task, times) -> assertEquals(1, times, "node " + node.label + ": " + task
                + " logs its recovery once"));
        // A slow task (the retention purger runs every 30 s) may notice the outage only now: its one line, and
        // the two Hibernate logs for the failed statement, are allowed; nothing else is.
        List<String> records = quietWindow.stream().filter(line -> line.startsWith("[")).toList();
        long late = records.stream().filter(line -> line.contains("cannot use the database")).count();
        List<String> jobqueue = records.stream().filter(line -> line.contains(" dev.jobqueue.internal.")
                && !line.contains("cannot use the database")).toList();
        long hibernate = records.stream().filter(line -> line.contains("SqlExceptionHelper")).count();
        assertEquals(List.of(), jobqueue, "node " + node.label + " logs nothing more while the database stays down");
        assertTrue(hibernate <= 2 * late, "node " + node.label + ": no task retries through Hibernate while the"
                + " database stays down: " + records);
    }

    private static Map<String, Long> tasks(List<String> log, String event) {
        return log.stream().filter(line -> line.contains(event))
                .map(line -> line.replaceAll(".*jobqueue: (.*) " + event + ".*", "$1"))
                .collect(Collectors.groupingBy(task -> task, Collectors.counting()));
    }

    private static boolean logged(ServerNode node, long from, String text) {
        try {
            return java.nio.file.Files.exists(node.messagesLog())
                    && node.logBetween(from, node.logSize()).stream().anyMatch(line -> line.contains(text));
        } catch (IOException e) {
            return false;
        }
    }

    private boolean doneAtLeast(long count) {
        try {
            return ledger.done() >= count;
        } catch (java.sql.SQLException e) {
            return false;
        }
    }

    private boolean runningAtLeast(int count) {
        try {
            return ledger.running().size() >= count;
        } catch (java.sql.SQLException e) {
            return false;
        }
    }

    private boolean released(Map<String, String> leases) {
        try {
            return ledger.released(leases);
        } catch (java.sql.SQLException e) {
            return false;
        }
    }

    private boolean recovered(Map<String, Integer> inFlight) {
        try {
            return ledger.finishedOrClaimedAgain(inFlight);
        } catch (java.sql.SQLException e) {
            return false;
        }
    }

    private void summary(String scenario, long enqueued, String details) throws Exception {
        long done = ledger.done();
        System.out.printf("SUMMARY %s scenario=%s enqueued=%d done=%d duplicates=%d lost=%d %s%n",
                ServerNode.where(db), scenario, enqueued, done, ledger.duplicateEffects(), enqueued - done, details);
    }

    private static void startQuietly(ServerNode node) {
        try {
            node.start();
        } catch (Exception e) {
            throw new IllegalStateException("node " + node.label + " did not start", e);
        }
    }

    private static void postQuietly(ServerNode node, String path) {
        try {
            node.postOk(path);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
