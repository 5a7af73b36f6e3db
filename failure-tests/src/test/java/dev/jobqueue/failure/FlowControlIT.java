package dev.jobqueue.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer.OrderAnnotation;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Cluster-wide flow control on three servers (ports 9511 to 9513) sharing one database: a rate limit and a
 * {@code max-running} that hold on all nodes together, also through a kill -9 and a database restart, and a
 * consumer's backoff that stops every node. Each queue has more runners on the three nodes than its limit allows
 * (see the application's {@code FlowConsumers}), so only the limit holds them back. Starts are read from the job
 * table: a job's {@code started_at} is its claim, which a limited queue makes only for jobs a runner starts at
 * once. Each scenario prints a SUMMARY line.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(OrderAnnotation.class)
class FlowControlIT {

    private static final int RATE = 50;
    private static final Duration PERIOD = Duration.ofSeconds(1);
    private static final int MAX_RUNNING = 5;
    private static final Duration BACKOFF = Duration.ofSeconds(3);
    private static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(3);

    private final TestDatabase db = TestDatabase.fromSystemProperty();
    private final Ledger ledger = new Ledger(db);
    private final List<ServerNode> nodes = new ArrayList<>();

    @BeforeAll
    void createCluster() throws Exception {
        db.recreate();
        db.createApplicationTables();
        for (String label : List.of("A", "B", "C")) {
            nodes.add(ServerNode.create(label, 9510 + nodes.size() + 1, db));
        }
        for (ServerNode node : nodes) {
            node.start();
        }
    }

    @AfterAll
    void stopCluster() throws Exception {
        for (ServerNode node : nodes) {
            try {
                node.stop();
            } catch (IllegalStateException notRunning) {
                System.out.println("node " + node.label + ": " + notRunning.getMessage());
            }
        }
    }

    @Test
    @Order(1)
    void aRateLimitHoldsOnAllNodesTogetherAndTheBacklogGetsNearlyAllOfIt() throws Exception {
        db.clear();
        int total = 500;
        nodes.get(0).postOk("/chaos/queue?name=rate-limited&count=" + total + "&millis=10");
        awaitDrained(total);

        List<Long> starts = startedAt("rate-limited");
        int busiest = busiestPeriod(starts);
        // While the backlog lasts at the limit's rate, total / RATE seconds from the first start.
        long backlogMillis = total * PERIOD.toMillis() / RATE;
        long startedWhileBacklog = starts.stream().filter(at -> at < starts.get(0) + backlogMillis).count();
        double perSecond = startedWhileBacklog * 1000.0 / backlogMillis;
        summary("rate-limit", total, "limit=" + RATE + "/1s busiest-period=" + busiest
                + String.format(" jobs-per-second=%.1f slot-cycle=%.0fms", perSecond, slotCycle(starts))
                + " nodes=" + nodesThatStarted("rate-limited"));

        assertTrue(busiest <= RATE, "at most " + RATE + " starts in any period of 1 s, on all nodes: " + busiest);
        assertTrue(perSecond >= 0.9 * RATE, "the backlog gets at least 90 % of the limit: " + perSecond
                + "/s in the first " + backlogMillis + " ms");
        assertEquals(total, ledger.effects(), "one effect per job");
    }

    @Test
    @Order(2)
    void maxRunningHoldsOnAllNodesTogether() throws Exception {
        db.clear();
        int total = 100;
        RunningSampler sampler = RunningSampler.start(db, "max-running");
        nodes.get(1).postOk("/chaos/queue?name=max-running&count=" + total + "&millis=200");
        awaitDrained(total);
        sampler.stop();

        summary("max-running", total, "limit=" + MAX_RUNNING + " most-running=" + sampler.most() + " samples="
                + sampler.samples() + " nodes=" + nodesThatStarted("max-running"));
        assertTrue(sampler.most() <= MAX_RUNNING, "never more than " + MAX_RUNNING + " RUNNING: " + sampler.most());
        assertEquals(MAX_RUNNING, sampler.most(), "twelve runners on three nodes use the whole limit");
        assertEquals(total, ledger.effects(), "one effect per job");
    }

    @Test
    @Order(3)
    void aConsumerBackoffStopsEveryNodeForItsWaitAndItsAttemptIsNotCounted() throws Exception {
        db.clear();
        nodes.get(2).postOk("/chaos/queue?name=partner&count=1&millis=-" + BACKOFF.toMillis());
        String told = onlyJob("partner");
        int total = 120;
        nodes.get(0).postOk("/chaos/queue?name=partner&count=" + (total - 1) + "&millis=100");
        awaitDrained(total);

        Instant pausedUntil = pausedUntil("partner");
        long pauseBegan = pausedUntil.minus(BACKOFF).toEpochMilli();
        List<Long> calls = consumerCalls("partner");
        // Claims under way as the backoff was written may still commit: a few milliseconds' grace.
        long duringPause = calls.stream().filter(at -> at > pauseBegan + 250 && at < pausedUntil.toEpochMilli() - 50)
                .count();
        long after = calls.stream().filter(at -> at >= pausedUntil.toEpochMilli() - 50).count();
        int[] toldJob = attemptsAndStarts(told);
        summary("backoff", total, "wait=" + BACKOFF.toMillis() + "ms starts-during-pause=" + duringPause
                + " starts-after=" + after + " told-job-attempts=" + toldJob[0] + " told-job-starts=" + toldJob[1]);

        assertEquals(0, duringPause, "no node starts a job of the queue while it backs off");
        assertTrue(after > total / 2, "the queue runs again after the wait: " + after + " starts");
        assertEquals(2, toldJob[1], "the job that was told to back off ran again");
        assertEquals(1, toldJob[0], "its first attempt was not counted");
        assertEquals(total, ledger.effects(), "one effect per job");
    }

    @Test
    @Order(4)
    void bothLimitsHoldThroughAKillNineAndADatabaseRestart() throws Exception {
        db.clear();
        int rated = 400;
        int capped = 100;
        RunningSampler sampler = RunningSampler.start(db, "max-running");
        nodes.get(0).postOk("/chaos/queue?name=rate-limited&count=" + rated + "&millis=10");
        nodes.get(0).postOk("/chaos/queue?name=max-running&count=" + capped + "&millis=200");
        Thread.sleep(2_000);
        ServerNode killed = nodes.get(1);
        killed.kill();
        Thread.sleep(2_000);
        db.stop();
        Thread.sleep(3_000);
        db.start();
        killed.start();
        awaitDrained(rated + capped);
        sampler.stop();

        int busiest = busiestPeriod(startedAt("rate-limited"));
        summary("limits-through-faults", rated + capped, "faults=kill-9,db-restart busiest-period=" + busiest
                + " most-running=" + sampler.most() + " samples=" + sampler.samples() + " duplicate-effects="
                + ledger.duplicateEffects());
        assertTrue(busiest <= RATE, "at most " + RATE + " starts in any period of 1 s: " + busiest);
        assertTrue(sampler.most() <= MAX_RUNNING, "never more than " + MAX_RUNNING + " RUNNING: " + sampler.most());
        assertEquals(rated + capped, ledger.effects(), "one effect per job: a killed attempt rolled back");
        assertEquals(0, ledger.duplicateEffects());
    }

    /** The most starts in any window of one period, [t, t + period), over sorted start times. */
    private static int busiestPeriod(List<Long> sortedStarts) {
        int most = 0;
        int first = 0;
        for (int last = 0; last < sortedStarts.size(); last++) {
            while (sortedStarts.get(last) - sortedStarts.get(first) >= PERIOD.toMillis()) {
                first++;
            }
            most = Math.max(most, last - first + 1);
        }
        return most;
    }

    /**
     * How long, on average, a start's slot took to be used again: the time from each start to the one {@link #RATE}
     * starts later. One period is the ideal; what it takes beyond is the claims' latency.
     */
    private static double slotCycle(List<Long> sortedStarts) {
        return java.util.stream.IntStream.range(RATE, sortedStarts.size())
                .mapToLong(i -> sortedStarts.get(i) - sortedStarts.get(i - RATE)).average().orElse(0);
    }

    private List<Long> startedAt(String queue) throws SQLException {
        return longs("SELECT started_at FROM jobqueue_job WHERE queue = ? ORDER BY started_at", queue, true);
    }

    /** When the consumer was called, by the node's clock, for every attempt of the queue's jobs. */
    private List<Long> consumerCalls(String queue) throws SQLException {
        return longs("SELECT s.started_at FROM failure_start s JOIN jobqueue_job j ON j.id = s.job_id"
                + " WHERE j.queue = ? ORDER BY s.started_at", queue, false);
    }

    private List<Long> longs(String sql, String queue, boolean timestamps) throws SQLException {
        List<Long> values = new ArrayList<>();
        try (Connection connection = db.connect(); PreparedStatement query = connection.prepareStatement(sql)) {
            query.setString(1, queue);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    values.add(timestamps ? instant(rows, 1).toEpochMilli() : rows.getLong(1));
                }
            }
        }
        return values;
    }

    private long nodesThatStarted(String queue) throws SQLException {
        try (Connection connection = db.connect(); PreparedStatement query = connection.prepareStatement(
                "SELECT COUNT(DISTINCT s.node) FROM failure_start s JOIN jobqueue_job j ON j.id = s.job_id"
                        + " WHERE j.queue = ?")) {
            query.setString(1, queue);
            try (ResultSet row = query.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }

    private String onlyJob(String queue) throws SQLException {
        try (Connection connection = db.connect(); PreparedStatement query = connection.prepareStatement(
                "SELECT id FROM jobqueue_job WHERE queue = ?")) {
            query.setString(1, queue);
            try (ResultSet row = query.executeQuery()) {
                row.next();
                return row.getString(1);
            }
        }
    }

    private Instant pausedUntil(String queue) throws SQLException {
        try (Connection connection = db.connect(); PreparedStatement query = connection.prepareStatement(
                "SELECT paused_until FROM jobqueue_queue WHERE name = ?")) {
            query.setString(1, queue);
            try (ResultSet row = query.executeQuery()) {
                assertTrue(row.next(), "queue " + queue + " has a row");
                return instant(row, 1);
            }
        }
    }

    /** The job's attempts as counted, and how many times its consumer was called. */
    private int[] attemptsAndStarts(String id) throws SQLException {
        try (Connection connection = db.connect(); PreparedStatement query = connection.prepareStatement(
                "SELECT attempts, (SELECT COUNT(*) FROM failure_start s WHERE s.job_id = j.id) FROM jobqueue_job j"
                        + " WHERE j.id = ?")) {
            query.setString(1, id);
            try (ResultSet row = query.executeQuery()) {
                row.next();
                return new int[] {row.getInt(1), row.getInt(2)};
            }
        }
    }

    /** A timestamp column in UTC: MariaDB's DATETIME has no zone, and jobqueue writes UTC. */
    private static Instant instant(ResultSet row, int column) throws SQLException {
        return row.getTimestamp(column, java.util.Calendar.getInstance(java.util.TimeZone.getTimeZone("UTC")))
                .toInstant();
    }

    private void awaitDrained(long expected) throws InterruptedException {
        Commands.awaitTrue(() -> {
            try {
                return ledger.jobs() == expected && ledger.done() == expected;
            } catch (SQLException e) {
                return false;
            }
        }, DRAIN_TIMEOUT, expected + " jobs to be DONE");
    }

    private void summary(String scenario, long enqueued, String details) throws Exception {
        long done = ledger.done();
        System.out.printf("SUMMARY %s scenario=%s enqueued=%d done=%d duplicates=%d lost=%d %s%n",
                ServerNode.where(db), scenario, enqueued, done, ledger.duplicateEffects(), enqueued - done, details);
    }

    /** Counts a queue's RUNNING jobs in the table every 10 ms, in a thread of its own; a failed read is skipped. */
    private static final class RunningSampler {
        private final AtomicBoolean sampling = new AtomicBoolean(true);
        private final AtomicInteger most = new AtomicInteger();
        private final AtomicInteger samples = new AtomicInteger();
        private CompletableFuture<Void> task;

        static RunningSampler start(TestDatabase db, String queue) {
            RunningSampler sampler = new RunningSampler();
            sampler.task = CompletableFuture.runAsync(() -> sampler.run(db, queue));
            return sampler;
        }

        private void run(TestDatabase db, String queue) {
            while (sampling.get()) {
                try (Connection connection = db.connect(); PreparedStatement count = connection.prepareStatement(
                        "SELECT COUNT(*) FROM jobqueue_job WHERE queue = ? AND state = 'RUNNING'")) {
                    count.setString(1, queue);
                    while (sampling.get()) {
                        try (ResultSet row = count.executeQuery()) {
                            row.next();
                            most.accumulateAndGet(row.getInt(1), Math::max);
                            samples.incrementAndGet();
                        }
                        Thread.sleep(10);
                    }
                } catch (SQLException e) {
                    sleepQuietly();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }

        private static void sleepQuietly() {
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        void stop() {
            sampling.set(false);
            task.join();
        }

        int most() {
            return most.get();
        }

        int samples() {
            return samples.get();
        }
    }
}
