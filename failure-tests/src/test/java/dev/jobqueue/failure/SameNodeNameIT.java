package dev.jobqueue.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer.OrderAnnotation;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Two servers (Liberty or WildFly), on ports 9491 and 9492, given one {@code jobqueue.node-name}, as a copied
 * configuration or two containers with one server name give them. A node that starts must leave alone the jobs its live
 * twin runs under that name, and say that the name is shared (JQ090); one restarted after a kill -9 must still take
 * back its own dead jobs at once. The jobs run on queue long-lease, whose five-minute lease never expires during a
 * scenario: only a node's start-up could take them back. Each scenario prints a SUMMARY line.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(OrderAnnotation.class)
class SameNodeNameIT {

    private static final String SHARED_NAME = "twin";
    /**
     * Long jobs each node runs: fewer than the four threads Liberty's default executor starts with on two cores.
     * Jobs that hold all of them starve the node's lease keeper, which runs on the same executor, until Liberty
     * adds threads, seconds to a minute later; a node that renews nothing for that long looks dead.
     */
    private static final int JOBS_PER_NODE = 2;
    /**
     * How long a live twin's jobs run at most: longer than the other node's start-up and its wait to take back
     * leases. Once that node has decided (logged JQ090), the test ends them early with {@code /chaos/release}.
     */
    private static final int LIVE_JOB_MILLIS = 90_000;
    /** How long the jobs of a node that is killed run: long enough to be running at the kill. */
    private static final int KILLED_JOB_MILLIS = 30_000;
    private static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(5);
    /** How long a started node may take to log JQ090 before the live jobs are released anyway. */
    private static final Duration TAKE_BACK_DECIDED_TIMEOUT = Duration.ofSeconds(60);

    private final TestDatabase db = TestDatabase.fromSystemProperty();
    private final Ledger ledger = new Ledger(db);
    private ServerNode a;
    private ServerNode b;

    @BeforeAll
    void createTwins() throws Exception {
        db.recreate();
        db.createApplicationTables();
        a = ServerNode.create("A", 9491, db);
        b = ServerNode.create("B", 9492, db);
        a.nodeName(SHARED_NAME);
        b.nodeName(SHARED_NAME);
        a.start();
        b.start();
    }

    @AfterAll
    void stopTwins() throws Exception {
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
    void aNodeThatRestartsLeavesTheJobsItsLiveTwinRunsAndSaysTheNameIsShared() throws Exception {
        db.clear();
        a.stop();
        b.postOk("/chaos/queue?name=long-lease&count=" + JOBS_PER_NODE + "&millis=" + LIVE_JOB_MILLIS);
        Set<String> runningOnB = awaitStarted("B");
        int warningsBefore = a.linesMentioning("JQ090").size();

        long restarting = System.nanoTime();
        a.start();
        Duration restart = Duration.ofNanos(System.nanoTime() - restarting);
        releaseOnceTakeBackDecided(a, warningsBefore, b);
        awaitDrained(JOBS_PER_NODE);

        Map<String, List<Ledger.Start>> starts = ledger.starts();
        List<String> warnings = a.linesMentioning("JQ090");
        summary("same-name-restart", JOBS_PER_NODE, "restart=" + restart.toMillis() + "ms started-twice="
                + startedTwice(starts, runningOnB) + " warnings=" + (warnings.size() - warningsBefore));

        assertEquals(Set.of(), startedTwice(starts, runningOnB),
                "no job that B was running was started again by A's start-up: " + starts);
        assertEquals(JOBS_PER_NODE, ledger.effects(), "one effect per job");
        assertSharedNameLogged(a, warnings.subList(warningsBefore, warnings.size()));
    }

    @Test
    @Order(2)
    void aNodeKilledAndRestartedTakesBackItsOwnJobsAtOnceAndLeavesItsLiveTwinsAlone() throws Exception {
        db.clear();
        Set<String> runningOnA = whilePaused(b, () -> {
            a.postOk("/chaos/queue?name=long-lease&count=" + JOBS_PER_NODE + "&millis=" + LIVE_JOB_MILLIS);
            return awaitStarted("A");
        });
        Set<String> runningOnB = whilePaused(a, () -> {
            b.postOk("/chaos/queue?name=long-lease&count=" + JOBS_PER_NODE + "&millis=" + KILLED_JOB_MILLIS);
            return awaitStarted("B");
        });
        Map<String, Integer> killed = ledger.running().entrySet().stream()
                .filter(job -> runningOnB.contains(job.getKey()))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        int warningsBefore = b.linesMentioning("JQ090").size();

        b.kill();
        long restarting = System.nanoTime();
        b.start();
        Duration restart = Duration.ofNanos(System.nanoTime() - restarting);
        Commands.awaitTrue(() -> recovered(killed), Duration.ofSeconds(90),
                "node B to take back the jobs it held when it was killed");
        Duration recovery = Duration.ofNanos(System.nanoTime() - restarting);
        releaseOnceTakeBackDecided(b, warningsBefore, a, b);
        awaitDrained(2 * JOBS_PER_NODE);

        Map<String, List<Ledger.Start>> starts = ledger.starts();
        List<String> warnings = b.linesMentioning("JQ090");
        summary("same-name-kill-9", 2 * JOBS_PER_NODE, "running-at-kill=" + killed.size() + " restart=" + restart.toMillis()
                + "ms recovery=" + recovery.toMillis() + "ms started-twice-of-A=" + startedTwice(starts, runningOnA)
                + " warnings=" + (warnings.size() - warningsBefore));

        assertEquals(runningOnB, killed.keySet(), "B's jobs were running when it was killed");
        assertEquals(Set.of(), startedTwice(starts, runningOnA),
                "no job that A was running was started again by B's start-up: " + starts);
        assertTrue(recovery.compareTo(restart.plusSeconds(20)) <= 0, "the restarted node took back its own jobs"
                + " within 20 s of starting, not after their leases: " + recovery);
        assertEquals(2 * JOBS_PER_NODE, ledger.effects(), "one effect per job");
        assertSharedNameLogged(b, warnings.subList(warningsBefore, warnings.size()));
    }

    /**
     * Once {@code started} has logged a new JQ090, that is, has decided which leases under its name to take back,
     * ends the work under way on {@code runners}, so that the scenario need not wait out the live jobs' time. If no
     * warning comes within {@link #TAKE_BACK_DECIDED_TIMEOUT}, releases them all the same: the assertions that
     * follow say what went wrong.
     */
    private static void releaseOnceTakeBackDecided(ServerNode started, int warningsBefore, ServerNode... runners)
            throws Exception {
        long deadline = System.nanoTime() + TAKE_BACK_DECIDED_TIMEOUT.toNanos();
        while (started.linesMentioning("JQ090").size() <= warningsBefore && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        for (ServerNode runner : runners) {
            runner.postOk("/chaos/release");
        }
    }

    /** A warning, with its code, that names the shared node name. */
    private static void assertSharedNameLogged(ServerNode node, List<String> warnings) {
        System.out.println("node " + node.label + " logged: " + warnings);
        assertTrue(warnings.stream().anyMatch(line -> line.contains("'" + SHARED_NAME + "'")),
                "node " + node.label + " logged a JQ090 warning naming the node name " + SHARED_NAME + ": " + warnings);
    }

    /** Something done while {@code node} is stopped with SIGSTOP, so that it claims none of the jobs put meanwhile. */
    private static <T> T whilePaused(ServerNode node, Step<T> step) throws Exception {
        node.signal("STOP");
        try {
            return step.run();
        } finally {
            node.signal("CONT");
        }
    }

    @FunctionalInterface
    private interface Step<T> {
        T run() throws Exception;
    }

    /** Waits until {@link #JOBS_PER_NODE} jobs have started on {@code node}, and returns them. */
    private Set<String> awaitStarted(String node) throws InterruptedException {
        Commands.awaitTrue(() -> startedOn(node).size() >= JOBS_PER_NODE, Duration.ofMinutes(1),
                JOBS_PER_NODE + " jobs to start on node " + node);
        return startedOn(node);
    }

    private Set<String> startedOn(String node) {
        try {
            return ledger.starts().entrySet().stream()
                    .filter(job -> job.getValue().stream().anyMatch(start -> start.node().equals(node)))
                    .map(Map.Entry::getKey).collect(Collectors.toSet());
        } catch (SQLException e) {
            return Set.of();
        }
    }

    private static Set<String> startedTwice(Map<String, List<Ledger.Start>> starts, Set<String> jobs) {
        return jobs.stream().filter(job -> starts.get(job).size() > 1).collect(Collectors.toSet());
    }

    private boolean recovered(Map<String, Integer> jobs) {
        try {
            return ledger.finishedOrClaimedAgain(jobs);
        } catch (SQLException e) {
            return false;
        }
    }

    private void awaitDrained(long expected) throws InterruptedException {
        Commands.awaitTrue(() -> {
            try {
                return ledger.jobs() == expected && ledger.done() == expected;
            } catch (SQLException e) {
                return false;
            }
        }, DRAIN_TIMEOUT, "every job to be DONE");
    }

    private void summary(String scenario, long enqueued, String details) throws SQLException {
        System.out.printf("SUMMARY %s scenario=%s enqueued=%d done=%d duplicates=%d %s%n", ServerNode.where(db),
                scenario, enqueued, ledger.done(), ledger.duplicateEffects(), details);
    }
}
