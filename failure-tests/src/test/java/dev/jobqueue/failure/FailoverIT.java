package dev.jobqueue.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer.OrderAnnotation;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Two Liberty nodes on a pg_auto_failover formation of this machine ({@code pg-auto-failover.sh}): a primary and a
 * secondary, reached through pgjdbc's multi-host URL ({@code datasource-postgresql-ha.xml}). A client puts orders
 * at 200 a second, each saved with its job in one transaction, and records every put that was acknowledged;
 * every job writes its effect in its own transaction. Mid-run the primary is killed with SIGKILL (its keeper and
 * postmaster), then, in a second run, switched over with {@code pg_autoctl perform failover}; a third run kills
 * the primary under asynchronous replication and measures what is lost. Each run prints a SUMMARY line, and a LOG
 * line per node with what the failover wrote to its log. Runs only with {@code -Dfailover=true}:
 * {@code ./mvnw -B verify -Pfailure -pl failure-tests -am -Dit.test=FailoverIT -Dfailover=true}. With
 * {@code -Ppgbouncer} as well, the nodes' jobs go through PgBouncer in transaction mode
 * ({@code datasource-postgresql-ha-pgbouncer.xml}), which {@link BouncerFollowsPrimary} leads to each new primary,
 * and only their LISTEN connections reach the formation directly.
 */
@EnabledIfSystemProperty(named = "failover", matches = "true")
@DisabledIfSystemProperty(named = "failure.server", matches = "wildfly", disabledReason = "WildFly: wildfly-config has"
        + " no multi-host PostgreSQL datasource; only Liberty's datasource-postgresql-ha.xml reaches the formation")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(OrderAnnotation.class)
class FailoverIT {

    private static final int PUTS_PER_SECOND = 200;
    /** Load before the failover, and after the first job finished on the new primary. */
    private static final Duration STEADY = Duration.ofSeconds(10);
    /**
     * From the kill to the first job finished on the new primary. With its defaults pg_auto_failover's monitor
     * marks the primary unhealthy after about 10 s, starts the promotion after 20 s, and lets the new primary take
     * writes only once the old one has had 30 s to demote itself (primary_demote_timeout): about 55 s. Then the
     * nodes need a pool purge and a poll.
     */
    private static final Duration FAILOVER_BOUND = Duration.ofSeconds(90);
    private static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(5);
    /** HTTP/1.1: Liberty stalls the HTTP/2 upgrades of hundreds of requests sent at once (waitForConnectionInit). */
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private final TestDatabase db = TestDatabase.POSTGRESQL_HA;
    private final Ledger ledger = new Ledger(db);
    private ServerNode a;
    private ServerNode b;
    private BouncerFollowsPrimary bouncer;
    private int nextOrder;

    @BeforeAll
    void createCluster() throws Exception {
        Formation.up("sync", TestDatabase.NAME);
        if (TestDatabase.PGBOUNCER_PORT != null) {
            bouncer = BouncerFollowsPrimary.start(TestDatabase.PGBOUNCER_PORT);
        }
        db.createApplicationTables();
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
    }

    @AfterAll
    void removeCluster() throws Exception {
        for (ServerNode node : new ServerNode[] {a, b}) {
            if (node != null) {
                try {
                    node.stop();
                } catch (IllegalStateException notRunning) {
                    System.out.println("node " + node.label + ": " + notRunning.getMessage());
                }
            }
        }
        if (bouncer != null) {
            bouncer.close();
        }
        Formation.down();
    }

    @Test
    @Order(1)
    void whenThePrimaryIsKilledNoAcknowledgedJobIsLostOrRunTwice() throws Exception {
        Outcome outcome = failover("kill-9", "sync", () -> Formation.run("kill-primary"));
        Formation.run("rejoin");
        outcome.assertNothingLost();
        outcome.assertReadinessWentDown();
    }

    @Test
    @Order(2)
    void aSwitchoverLosesNothingEither() throws Exception {
        Formation.run("wait-healthy");
        Outcome outcome = failover("switchover", "sync", () -> Formation.run("switchover"));
        outcome.assertNothingLost();
    }

    /** Asynchronous replication: the commits the secondary had not received when the primary died are lost. */
    @Test
    @Order(3)
    void underAsynchronousReplicationTheLastCommitsCanBeLost() throws Exception {
        Formation.run("wait-healthy");
        Formation.run("async");
        Outcome outcome = failover("kill-9", "async", () -> Formation.run("kill-primary"));
        Formation.run("rejoin");
        outcome.assertNoJobLeftBehind();
    }

    /** What a failover action does; it returns once it has been done (a kill) or is over (a switchover). */
    private interface Action {
        void run() throws Exception;
    }

    /** Runs the load, the action mid-run, then drains and counts; prints the SUMMARY and LOG lines. */
    private Outcome failover(String scenario, String replication, Action action) throws Exception {
        db.clear();
        Load load = new Load(nextOrder);
        CompletableFuture<Void> putting = CompletableFuture.runAsync(load);
        Thread.sleep(STEADY.toMillis());
        Map<ServerNode, long[]> logsBefore = Map.of(a, logMark(a), b, logMark(b));
        String behind = standbyBehind();
        Readiness readiness = new Readiness();
        CompletableFuture<Void> probing = CompletableFuture.runAsync(readiness);
        long actedAt = System.currentTimeMillis();
        action.run();
        // A kill is the action's last step; a switchover returns once the secondary is primary.
        long actionDone = System.currentTimeMillis();
        long firstDone = awaitFirstEffectAfter(actionDone);
        Thread.sleep(STEADY.toMillis());
        load.stop();
        putting.join();
        nextOrder = load.next();
        awaitDrained();
        readiness.stop();
        probing.join();

        Set<Integer> saved = ledger.orders();
        Set<Integer> lostAcknowledged = new HashSet<>(load.acknowledged);
        lostAcknowledged.removeAll(saved);
        long jobs = ledger.jobs();
        long ranTwice = ledger.starts().values().stream().filter(starts -> starts.size() > 1).count();
        long unfinished = count("SELECT COUNT(*) FROM jobqueue_job WHERE state IN ('RUNNING', 'WAITING', 'PENDING')");
        Outcome outcome = new Outcome(scenario, replication, load.acknowledged.size(), lostAcknowledged, jobs,
                ledger.done(), ledger.duplicateEffects(), saved.equals(ledger.orderEffects()), unfinished,
                firstDone < 0 ? -1 : firstDone - actionDone, readiness);
        System.out.printf("SUMMARY %s scenario=failover-%s replication=%s enqueued=%d done=%d duplicates=%d"
                + " lost=%d acknowledged=%d failed=%d not-sent=%d acknowledged-lost=%d ran-twice=%d"
                + " left-unfinished=%d standby-behind=%s action=%dms first-done-after=%dms no-job-finished-for=%dms"
                + " bound=%dms readiness-down=%s readiness-up-at-end=%s%n",
                ServerNode.where(db), scenario, replication, jobs, outcome.done, outcome.duplicates,
                jobs - outcome.done,
                load.acknowledged.size(), load.failed.get(), load.notSent.get(), lostAcknowledged.size(), ranTwice,
                unfinished, behind, actionDone - actedAt, outcome.firstDoneMillis, longestPause(actedAt),
                FAILOVER_BOUND.toMillis(), readiness.downSeen() ? readiness.downMillis() + "ms" : "never",
                readiness.upAtEnd());
        for (ServerNode node : List.of(a, b)) {
            printLog(scenario, node, logsBefore.get(node));
        }
        return outcome;
    }

    /** The size of the node's messages.log and the number of its FFDC incident files. */
    private static long[] logMark(ServerNode node) throws IOException {
        return new long[] {node.logSize(), incidents(node)};
    }

    /** The FFDC incident files the server wrote: one for each new kind of failure. */
    private static long incidents(ServerNode node) throws IOException {
        Path ffdc = node.messagesLog().resolveSibling("ffdc");
        if (!Files.isDirectory(ffdc)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(ffdc)) {
            return files.filter(file -> file.getFileName().toString().startsWith("ffdc_")).count();
        }
    }

    /**
     * What the failover wrote to a node's log, by source: jobqueue's own records, the server's connection pool and
     * transaction manager (J2CA, DSRA, WTRN), Hibernate, the application's failed requests (logged by the server with
     * their stack traces), the server's line for each DOWN answer of a health check, every other record;
     * stack-trace lines; and FFDC incident files.
     */
    private static void printLog(String scenario, ServerNode node, long[] before) throws IOException {
        Map<String, long[]> bySource = new TreeMap<>();
        long[] current = null;
        for (String line : node.logBetween(before[0], node.logSize())) {
            if (line.startsWith("[")) {
                current = bySource.computeIfAbsent(source(line), source -> new long[2]);
                current[0]++;
                if (line.contains("dev.jobqueue.internal.") && (line.contains(" W ") || line.contains(" E "))) {
                    System.out.println("  " + node.label + " " + (line.length() > 260 ? line.substring(0, 260) + "..."
                            : line));
                }
            } else if (current != null && line.startsWith("\tat ")) {
                current[1]++;
            }
        }
        StringBuilder counts = new StringBuilder();
        bySource.forEach((source, n) -> counts.append(' ').append(source).append('=').append(n[0]).append('/')
                .append(n[1]));
        System.out.printf("LOG scenario=failover-%s node=%s records/stack-trace-lines:%s incidents=%d%n", scenario,
                node.label, counts, incidents(node) - before[1]);
    }

    private static String source(String record) {
        if (record.contains(" dev.jobqueue.internal.")) {
            return "jobqueue";
        }
        if (record.contains("J2CA") || record.contains("DSRA") || record.contains("WTRN")) {
            return "server-pool-and-transactions";
        }
        if (record.contains("org.hibernate.")) {
            return "hibernate";
        }
        if (record.contains(" CWPMI") || record.contains("SRVE0777E") || record.contains("RESTEASY")) {
            return "application-requests";
        }
        if (record.contains("CWMMH0052W")) {
            return "health-down";
        }
        return "other";
    }

    /**
     * How far the secondary was behind the primary just before the failover: the WAL it had not yet flushed, and
     * its flush lag. Under asynchronous replication that is what a kill can lose.
     */
    private String standbyBehind() throws SQLException {
        try (Connection connection = db.connect(); Statement statement = connection.createStatement();
             ResultSet result = statement.executeQuery("SELECT pg_current_wal_lsn() - flush_lsn, flush_lag"
                     + " FROM pg_stat_replication")) {
            return result.next() ? result.getLong(1) + "B/" + result.getString(2) : "no-standby";
        }
    }

    /** The longest time, from a second before the failover on, in which no job wrote its effect. */
    private long longestPause(long since) throws SQLException {
        try (Connection connection = db.connect(); Statement statement = connection.createStatement();
             ResultSet result = statement.executeQuery("SELECT COALESCE(MAX(next - done_at), -1) FROM (SELECT done_at,"
                     + " LEAD(done_at) OVER (ORDER BY done_at) AS next FROM failure_effect WHERE done_at > "
                     + (since - 1_000) + ") AS effects")) {
            result.next();
            return result.getLong(1);
        }
    }

    /** When the first effect written after {@code since} was, or -1 if none came within the bound and a minute. */
    private long awaitFirstEffectAfter(long since) throws InterruptedException {
        long deadline = System.currentTimeMillis() + FAILOVER_BOUND.toMillis() + 60_000;
        while (System.currentTimeMillis() < deadline) {
            try {
                long first = count("SELECT COALESCE(MIN(done_at), -1) FROM failure_effect WHERE done_at > " + since);
                if (first > 0) {
                    return first;
                }
            } catch (SQLException noPrimaryYet) {
                // the formation is failing over
            }
            Thread.sleep(200);
        }
        return -1;
    }

    private void awaitDrained() throws InterruptedException {
        Commands.awaitTrue(() -> {
            try {
                return ledger.done() == ledger.jobs();
            } catch (SQLException e) {
                return false;
            }
        }, DRAIN_TIMEOUT, "every job to be DONE");
    }

    private long count(String sql) throws SQLException {
        try (Connection connection = db.connect(); Statement statement = connection.createStatement();
             ResultSet result = statement.executeQuery(sql)) {
            result.next();
            return result.getLong(1);
        }
    }

    /** What a run found, and what it must have found. */
    private record Outcome(String scenario, String replication, int acknowledged, Set<Integer> lostAcknowledged,
            long jobs, long done, long duplicates, boolean ordersMatchEffects, long unfinished, long firstDoneMillis,
            Readiness readiness) {

        void assertNothingLost() {
            assertEquals(Set.of(), lostAcknowledged, "every acknowledged order and its job exist");
            assertNoJobLeftBehind();
            assertTrue(firstDoneMillis >= 0 && firstDoneMillis < FAILOVER_BOUND.toMillis(),
                    "a job finished on the new primary within " + FAILOVER_BOUND + ": " + firstDoneMillis + "ms");
        }

        /** A killed primary leaves no database to answer until the secondary is promoted. */
        void assertReadinessWentDown() {
            assertTrue(readiness.downSeen(), "readiness is DOWN during the failover");
        }

        void assertNoJobLeftBehind() {
            assertEquals(jobs, done, "every job is DONE");
            assertEquals(0, unfinished, "no job is left RUNNING, WAITING or PENDING");
            assertEquals(0, duplicates, "every job wrote one effect");
            assertTrue(ordersMatchEffects, "an order is saved if and only if its job ran");
            assertTrue(readiness.upAtEnd(), "readiness is UP on both nodes after the failover");
        }
    }

    /** Puts one order a request at {@link #PUTS_PER_SECOND}, alternating between the nodes, until stopped. */
    private final class Load implements Runnable {

        final Set<Integer> acknowledged = ConcurrentHashMap.newKeySet();
        /** Puts answered with an error, or not at all. */
        final AtomicLong failed = new AtomicLong();
        /** Puts not sent, because 400 were waiting for an answer. */
        final AtomicLong notSent = new AtomicLong();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Semaphore inFlight = new Semaphore(400);
        private final List<CompletableFuture<?>> sent = new ArrayList<>();
        private int n;

        Load(int first) {
            this.n = first;
        }

        @Override
        public void run() {
            long start = System.nanoTime();
            long interval = TimeUnit.SECONDS.toNanos(1) / PUTS_PER_SECOND;
            for (long i = 0; running.get(); i++) {
                long due = start + i * interval;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    try {
                        TimeUnit.NANOSECONDS.sleep(wait);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
                if (!inFlight.tryAcquire()) {
                    notSent.incrementAndGet();
                    continue;
                }
                int order = n++;
                ServerNode node = order % 2 == 0 ? a : b;
                HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + node.port
                        + "/chaos/order?n=" + order)).timeout(Duration.ofSeconds(20))
                        .POST(HttpRequest.BodyPublishers.noBody()).build();
                sent.add(HTTP.sendAsync(request, HttpResponse.BodyHandlers.discarding()).handle((response, error) -> {
                    inFlight.release();
                    if (error == null && response.statusCode() == 200) {
                        acknowledged.add(order);
                    } else {
                        failed.incrementAndGet();
                    }
                    return null;
                }));
            }
            CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).join();
        }

        void stop() {
            running.set(false);
        }

        int next() {
            return n;
        }
    }

    /** Asks both nodes' {@code /health/ready} every half second, from the failover until stopped. */
    private final class Readiness implements Runnable {

        private final AtomicBoolean running = new AtomicBoolean(true);
        private volatile long firstDown = -1;
        private volatile long lastDown = -1;
        private volatile boolean upAtEnd;

        @Override
        public void run() {
            while (running.get()) {
                boolean up = ready(a) && ready(b);
                if (!up) {
                    long now = System.currentTimeMillis();
                    firstDown = firstDown < 0 ? now : firstDown;
                    lastDown = now;
                }
                try {
                    Thread.sleep(500);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            upAtEnd = ready(a) && ready(b);
        }

        void stop() {
            running.set(false);
        }

        boolean downSeen() {
            return firstDown >= 0;
        }

        /** How long readiness was DOWN on either node, from its first DOWN answer to its last. */
        long downMillis() {
            return lastDown - firstDown;
        }

        boolean upAtEnd() {
            return upAtEnd;
        }

        private boolean ready(ServerNode node) {
            try {
                return node.health("ready").statusCode() == 200;
            } catch (IOException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }
}
