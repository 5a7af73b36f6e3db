package dev.jobqueue.internal.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.internal.cron.CronSchedule;
import dev.jobqueue.internal.cron.ScheduleDefinition;
import dev.jobqueue.internal.cron.SchedulePolicy;
import dev.jobqueue.internal.fixtures.FakeScheduleTables;
import dev.jobqueue.internal.fixtures.LogCapture;
import dev.jobqueue.internal.fixtures.ManualExecutor;
import dev.jobqueue.internal.fixtures.SettableClock;
import dev.jobqueue.internal.store.DatabaseReachability;
import dev.jobqueue.internal.store.ScheduleRow;
import dev.jobqueue.internal.store.Transactions;
import dev.jobqueue.internal.time.LeaseClock;
import dev.jobqueue.internal.time.LeaseClocks;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/**
 * The nodes of a cluster declaring their schedules, on tables in memory and a clock the test moves: an older
 * version's node restarting in a rolling upgrade leaves the newer version's schedules as they are, two
 * applications on one queue leave each other's alone, and a schedule no running node declares is turned off once
 * the grace has passed, visibly. No server, no thread, no sleep.
 */
class ScheduleDeclarationsTest {

    private static final Instant T0 = Instant.parse("2026-03-01T09:00:00Z");
    private static final Duration GRACE = Duration.ofMinutes(10);
    private static final Duration ROUND = GRACE.dividedBy(4);

    private final SettableClock clock = new SettableClock(T0);
    private final FakeScheduleTables tables = new FakeScheduleTables();
    /** The running nodes, in the order their rounds run. */
    private final List<Node> running = new ArrayList<>();

    /** One node of one version of an application: the queues it consumes and the schedules it declares. */
    private final class Node {

        private final Set<String> queues;
        private final List<ScheduleDefinition> declared;
        private final ScheduleDeclarations declarations = new ScheduleDeclarations();
        private final ManualExecutor scheduler = new ManualExecutor();

        Node(Set<String> queues, ScheduleDefinition... declared) {
            this.queues = queues;
            this.declared = List.of(declared);
            Transactions direct = new Transactions() {
                @Override
                public <T> T inNewTransaction(Callable<T> work) throws Exception {
                    return work.call();
                }
            };
            LeaseClock leaseClock = LeaseClocks.following(clock);
            UndeclaredSchedules undeclared = new UndeclaredSchedules();
            undeclared.store = tables.scheduleStore();
            undeclared.transactions = direct;
            undeclared.clock = leaseClock;
            declarations.scheduler = scheduler;
            declarations.store = tables.scheduleStore();
            declarations.declarations = tables.declarationStore();
            declarations.undeclared = undeclared;
            declarations.transactions = direct;
            declarations.clock = leaseClock;
            declarations.database = new DatabaseReachability() {
                @Override
                public boolean reachable() {
                    return !tables.down;
                }
            };
        }

        Node start() {
            declarations.start(declared, queues, GRACE);
            running.add(this);
            return this;
        }

        /** Stops the node, gracefully or with kill -9: either way it declares nothing more. */
        void stop() {
            declarations.stop();
            running.remove(this);
        }

        /** The same version started again, as a new process. */
        Node restart() {
            stop();
            return new Node(queues, declared.toArray(ScheduleDefinition[]::new)).start();
        }
    }

    /** Moves the clock on by {@code time}, with a round of every running node every quarter of the grace. */
    private void runFor(Duration time) {
        for (Duration passed = Duration.ZERO; passed.compareTo(time) < 0; passed = passed.plus(ROUND)) {
            clock.advance(ROUND);
            List.copyOf(running).forEach(node -> node.scheduler.tick());
        }
    }

    private static ScheduleDefinition schedule(String name, String queue, String cron) {
        return new ScheduleDefinition(name, queue, CronSchedule.parse(cron, "UTC"), SchedulePolicy.DEFAULT, null, true,
                true);
    }

    private ScheduleRow stored(String name) {
        return tables.schedules.get(name);
    }

    @Test
    void an_older_node_restarting_or_killed_leaves_the_schedule_a_newer_version_added_firing() {
        try (LogCapture turnedOff = new LogCapture(UndeclaredSchedules.class.getName())) {
            Node v1 = new Node(Set.of("reports")).start();
            new Node(Set.of("reports"), schedule("reports", "reports", "* * * * * *")).start();
            runFor(ROUND);
            v1 = v1.restart();
            runFor(GRACE.multipliedBy(3));
            v1.restart();
            runFor(GRACE.multipliedBy(3));

            assertTrue(stored("reports").enabled(), "still on: " + stored("reports"));
            assertEquals(List.of(), turnedOff.messages(), "never turned off, not even for a round");
        }
    }

    @Test
    void an_older_node_restarting_leaves_the_newer_versions_times_and_says_so_with_JQ062() {
        Node v1 = new Node(Set.of("reports"), schedule("report", "reports", "0 3 * * *")).start();
        runFor(ROUND);
        new Node(Set.of("reports"), schedule("report", "reports", "0 4 * * *")).start();
        assertEquals("0 4 * * *", stored("report").cron(), "the newer version changed it at its start");

        try (LogCapture log = new LogCapture(ScheduleDeclarations.class.getName())) {
            v1.restart();
            runFor(GRACE.multipliedBy(3));

            assertEquals("0 4 * * *", stored("report").cron(), "neither the restart nor a round changed it back");
            assertEquals(1, log.messages().stream().filter(message -> message.startsWith("JQ062: schedule report"))
                    .count(), "said once, at the restart: " + log.messages());
        }
    }

    @Test
    void a_schedule_no_running_node_declares_is_turned_off_after_the_grace_with_JQ061_and_on_when_declared_again() {
        ScheduleDefinition cleanup = schedule("cleanup", "cleanup", "0 5 * * *");
        Node v1 = new Node(Set.of("cleanup"), cleanup).start();
        runFor(ROUND);
        v1.stop();
        new Node(Set.of("cleanup")).start();

        try (LogCapture log = new LogCapture(UndeclaredSchedules.class.getName())) {
            runFor(GRACE);
            assertTrue(stored("cleanup").enabled(), "declared within the grace, so still on");
            runFor(ROUND);
            assertFalse(stored("cleanup").enabled(), "off, not left firing");
            assertTrue(stored("cleanup").declarationGone(), "the admin listing says why");
            assertEquals(1, log.messages().size(), log.messages().toString());
            assertTrue(log.messages().get(0).startsWith("JQ061: schedule cleanup of queue cleanup is turned off"),
                    log.messages().get(0));
        }

        new Node(Set.of("cleanup"), cleanup).start();
        assertTrue(stored("cleanup").enabled(), "declared again, it fires again");
        assertFalse(stored("cleanup").declarationGone());
    }

    @Test
    void once_no_running_node_declares_the_newer_version_the_older_one_takes_effect_as_in_a_rollback() {
        new Node(Set.of("reports"), schedule("report", "reports", "0 3 * * *")).start();
        runFor(ROUND);
        Node v2 = new Node(Set.of("reports"), schedule("report", "reports", "0 4 * * *")).start();
        runFor(ROUND);
        v2.stop();
        runFor(GRACE);
        assertEquals("0 4 * * *", stored("report").cron(), "within the grace, the newer one stays");
        runFor(ROUND);
        assertEquals("0 3 * * *", stored("report").cron());
        assertTrue(stored("report").enabled());
    }

    @Test
    void two_applications_consuming_one_queue_leave_each_others_schedules_alone() {
        try (LogCapture turnedOff = new LogCapture(UndeclaredSchedules.class.getName())) {
            Node billing = new Node(Set.of("shared"), schedule("billing-report", "shared", "0 1 * * *")).start();
            Node audit = new Node(Set.of("shared"), schedule("audit-report", "shared", "0 2 * * *")).start();
            for (int restarts = 0; restarts < 3; restarts++) {
                runFor(GRACE);
                billing = billing.restart();
                audit = audit.restart();
            }
            runFor(GRACE.multipliedBy(2));

            assertTrue(stored("billing-report").enabled() && stored("audit-report").enabled(),
                    tables.schedules.toString());
            assertEquals(List.of(), turnedOff.messages());
        }
    }

    @Test
    void a_database_outage_longer_than_the_grace_turns_nothing_off() {
        try (LogCapture turnedOff = new LogCapture(UndeclaredSchedules.class.getName())) {
            new Node(Set.of("reports")).start();
            new Node(Set.of("reports"), schedule("reports", "reports", "* * * * * *")).start();
            runFor(ROUND);
            tables.down = true;
            runFor(GRACE.multipliedBy(2));
            tables.down = false;
            runFor(GRACE);

            assertTrue(stored("reports").enabled(), stored("reports").toString());
            assertEquals(List.of(), turnedOff.messages(), "the node that declares nothing has its round first after"
                    + " the outage, and waits a whole grace before it judges");
        }
    }

    @Test
    void a_schedule_an_operator_deleted_comes_back_at_the_next_start_not_at_a_round() {
        Node node = new Node(Set.of("reports"), schedule("report", "reports", "0 3 * * *")).start();
        tables.schedules.remove("report");
        runFor(GRACE);
        assertFalse(tables.schedules.containsKey("report"));
        node.restart();
        assertTrue(tables.schedules.containsKey("report"));
    }
}
