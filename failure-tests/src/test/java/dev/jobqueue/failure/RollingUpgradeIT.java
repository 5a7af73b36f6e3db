package dev.jobqueue.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.failure.rollout.ReportV1;
import dev.jobqueue.failure.rollout.ReportV2;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A rolling upgrade on two servers (Liberty or WildFly), separate processes on ports 9501 and 9502 that share one
 * database. Node B runs version 1 of the application, whose consumer of queue rollout has no schedule; node A runs
 * version 2, which schedules it every second. B restarts, and later is killed with kill -9 and started again, as nodes
 * of the old version do during a rollout: the new version's schedule fires on, one job per occurrence. When A stops, no
 * running node declares the schedule, and B turns it off once the grace has passed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RollingUpgradeIT {

    private static final String SCHEDULE = "rollout";
    /** {@code jobqueue.undeclared-schedule-grace} on both nodes. */
    private static final Duration GRACE = Duration.ofSeconds(5);
    /** How long the schedule fires before and after each of B's restarts. */
    private static final Duration WHILE_FIRING = Duration.ofSeconds(10);

    private final TestDatabase db = TestDatabase.fromSystemProperty();
    private final Ledger ledger = new Ledger(db);
    private ServerNode a;
    private ServerNode b;
    /** When node A, the first of version 2, began to start, in epoch seconds: the times printed count from it. */
    private long started;

    @BeforeAll
    void createCluster() throws Exception {
        db.recreate();
        db.createApplicationTables();
        b = ServerNode.create("B", 9502, db);
        b.deploy(WarVariant.build("v1", ReportV1.class));
        a = ServerNode.create("A", 9501, db);
        a.deploy(WarVariant.build("v2", ReportV2.class));
        for (ServerNode node : List.of(a, b)) {
            node.systemProperty("jobqueue.undeclared-schedule-grace", GRACE.toSeconds() + "s");
        }
        b.start();
        started = seconds();
        a.start();
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
    void theNewVersionsScheduleFiresOnWhileOldNodesRestartAndStopsOnceNoNodeDeclaresIt() throws Exception {
        Thread.sleep(WHILE_FIRING.toMillis());
        b.stop();
        b.start();
        long restarted = seconds();
        Thread.sleep(WHILE_FIRING.toMillis());
        b.kill();
        b.start();
        long killedAndRestarted = seconds();
        Thread.sleep(WHILE_FIRING.toMillis());
        boolean enabledBeforeAStopped = ledger.scheduleEnabled(SCHEDULE);
        a.stop();
        long stopped = seconds();
        Commands.awaitTrue(this::turnedOff, GRACE.multipliedBy(6), "node B to turn the schedule off");
        long turnedOff = seconds();
        awaitDrained();

        List<Long> effects = ledger.effectNumbers(SCHEDULE);
        long[] jobsAndKeys = ledger.jobsAndKeys(SCHEDULE);
        long first = effects.get(0);
        long last = effects.get(effects.size() - 1);
        long expected = last - first + 1;
        long occurrences = effects.stream().distinct().count();
        long duplicated = (jobsAndKeys[0] - jobsAndKeys[1]) + (effects.size() - occurrences);
        long missed = expected - occurrences;
        List<String> logged = b.linesMentioning("JQ061");
        System.out.printf("SUMMARY %s scenario=rolling-upgrade occurrences-expected=%d put=%d duplicated=%d"
                + " missed=%d first=+%ds last=+%ds b-restarted=+%ds b-killed-and-restarted=+%ds a-stopped=+%ds"
                + " turned-off=+%ds%n", ServerNode.where(db), expected, jobsAndKeys[1], duplicated, missed,
                first - started, last - started, restarted - started, killedAndRestarted - started, stopped - started,
                turnedOff - started);
        System.out.println("node B: " + logged);

        assertTrue(last >= stopped - 1, "the v2 schedule fired until node A stopped, through node B's restarts:"
                + " the last occurrence at +" + (last - started) + "s, A stopped at +" + (stopped - started) + "s");
        assertTrue(enabledBeforeAStopped, "the schedule was enabled while node A declared it");
        assertEquals(0, duplicated, "no occurrence has two jobs or two effects");
        assertEquals(0, missed, "no occurrence between the first and the last is missing");
        assertEquals(expected, jobsAndKeys[1], "one job per occurrence");
        assertTrue(last <= stopped + GRACE.toSeconds() + 3, "turned off within the grace of A's stop: last at +"
                + (last - started) + "s, A stopped at +" + (stopped - started) + "s");
        assertTrue(ledger.declarationGone(SCHEDULE), "the listing says why it is off");
        assertFalse(logged.isEmpty(), "node B logged JQ061 when it turned the schedule off");
    }

    private boolean turnedOff() {
        try {
            return !ledger.scheduleEnabled(SCHEDULE);
        } catch (java.sql.SQLException e) {
            return false;
        }
    }

    private void awaitDrained() throws InterruptedException {
        Commands.awaitTrue(() -> {
            try {
                return ledger.done() == ledger.jobs();
            } catch (java.sql.SQLException e) {
                return false;
            }
        }, Duration.ofMinutes(2), "every job to be DONE");
    }

    private static long seconds() {
        return System.currentTimeMillis() / 1000;
    }
}
