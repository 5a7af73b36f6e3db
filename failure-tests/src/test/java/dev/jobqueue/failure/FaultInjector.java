package dev.jobqueue.failure;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Injects the planned faults one after another, until the workload ends, and records when each one started
 * and ended. It tells the workload which nodes can take requests. Whatever happens, {@link #restore()} leaves
 * every node running and the database up.
 */
final class FaultInjector {

    /**
     * One injected fault.
     *
     * @param planned     what was planned
     * @param startMillis when it began (the signal, the kill, the stop, the terminate)
     * @param endMillis   when it was over: SIGCONT sent, the node serving again, the database answering again
     * @param detail      what it did, for the report
     */
    record Injected(FaultPlan.Planned planned, long startMillis, long endMillis, String detail) {

        FaultPlan.Kind kind() {
            return planned.kind();
        }

        /** Whether it could have reached a job of node {@code node}: a database fault reaches every node. */
        boolean reaches(String node) {
            return kind() == FaultPlan.Kind.TERMINATE || kind() == FaultPlan.Kind.DB_RESTART
                    || planned.node().equals(node);
        }
    }

    private final TestDatabase db;
    private final Map<String, ServerNode> nodes;
    private final List<FaultPlan.Planned> plan;
    private final long origin;
    private final Set<String> unavailable = ConcurrentHashMap.newKeySet();
    private final List<Injected> injected = new ArrayList<>();
    private final List<String> violations = new ArrayList<>();
    private volatile boolean databaseDown;
    /** When the last fault ended, or the run started; {@code Long.MAX_VALUE} while a fault lasts. */
    private volatile long quietSince;

    FaultInjector(TestDatabase db, Map<String, ServerNode> nodes, List<FaultPlan.Planned> plan, long origin) {
        this.db = db;
        this.nodes = nodes;
        this.plan = plan;
        this.origin = origin;
        this.quietSince = origin;
    }

    /** Injects faults until none can start before {@code lastStartMillis}; throws if a fault cannot be injected. */
    void run(long lastStartMillis) throws Exception {
        for (FaultPlan.Planned fault : plan) {
            Thread.sleep(fault.gap().toMillis());
            if (System.currentTimeMillis() > lastStartMillis) {
                return;
            }
            quietSince = Long.MAX_VALUE;
            Injected done = inject(fault);
            quietSince = System.currentTimeMillis();
            System.out.printf("fault %s: %.1fs to %.1fs, %s%n", fault, (done.startMillis() - origin) / 1e3,
                    (done.endMillis() - origin) / 1e3, done.detail());
            synchronized (injected) {
                injected.add(done);
            }
        }
    }

    List<Injected> injected() {
        synchronized (injected) {
            return List.copyOf(injected);
        }
    }

    /** Since when no fault has been under way; {@code Long.MAX_VALUE} while one is. */
    long quietSince() {
        return quietSince;
    }

    /** Whether {@code node} can take requests now: it is neither paused nor killed. */
    boolean available(ServerNode node) {
        return !unavailable.contains(node.label);
    }

    /** Resumes a paused node, starts a killed one and the database; for the end of the run, and after a failure. */
    void restore() throws Exception {
        if (databaseDown || !db.reachable()) {
            db.start();
            databaseDown = false;
        }
        for (ServerNode node : nodes.values()) {
            if (unavailable.contains(node.label)) {
                try {
                    node.signal("CONT");
                } catch (IllegalStateException notRunning) {
                    node.start();
                }
                unavailable.remove(node.label);
            }
        }
        quietSince = Math.min(quietSince, System.currentTimeMillis());
    }

    private Injected inject(FaultPlan.Planned fault) throws Exception {
        return switch (fault.kind()) {
            case PAUSE -> pause(nodes.get(fault.node()), fault);
            case KILL -> kill(nodes.get(fault.node()), fault);
            case DB_RESTART -> restartDatabase(fault);
            case TERMINATE -> terminate(fault);
        };
    }

    private Injected pause(ServerNode node, FaultPlan.Planned fault) throws Exception {
        unavailable.add(node.label);
        long start = System.currentTimeMillis();
        node.signal("STOP");
        try {
            Thread.sleep(fault.hold().toMillis());
        } finally {
            node.signal("CONT");
        }
        long end = System.currentTimeMillis();
        unavailable.remove(node.label);
        return new Injected(fault, start, end, "SIGSTOP of pid " + node.pid() + " for " + (end - start) + "ms");
    }

    private Injected kill(ServerNode node, FaultPlan.Planned fault) throws Exception {
        unavailable.add(node.label);
        long pid = node.pid();
        long start = System.currentTimeMillis();
        node.kill();
        node.start();
        long end = System.currentTimeMillis();
        unavailable.remove(node.label);
        return new Injected(fault, start, end, "SIGKILL of pid " + pid + ", serving again after " + (end - start)
                + "ms");
    }

    /**
     * Stops the database, and starts it again after the fault's hold. Meanwhile both nodes' {@code /health/live}
     * is asked every second: an outage is no reason to restart a node, so liveness must stay UP.
     */
    private Injected restartDatabase(FaultPlan.Planned fault) throws Exception {
        databaseDown = true;
        long start = System.currentTimeMillis();
        AtomicBoolean probing = new AtomicBoolean(true);
        CompletableFuture<Void> probe = CompletableFuture.runAsync(() -> probeLiveness(probing, start));
        try {
            db.stop();
            Thread.sleep(fault.hold().toMillis());
            db.start();
        } finally {
            probing.set(false);
            probe.join();
        }
        long end = System.currentTimeMillis();
        databaseDown = false;
        return new Injected(fault, start, end, "database down for " + (end - start) + "ms");
    }

    /** What the run saw wrong while it injected faults: liveness DOWN during a database outage. */
    List<String> violations() {
        synchronized (violations) {
            return List.copyOf(violations);
        }
    }

    private void probeLiveness(AtomicBoolean probing, long outageStart) {
        Set<String> reported = new HashSet<>();
        while (probing.get()) {
            for (ServerNode node : nodes.values()) {
                try {
                    HttpResponse<String> live = node.health("live");
                    if (live.statusCode() != 200 && reported.add(node.label)) {
                        synchronized (violations) {
                            violations.add("[liveness] node " + node.label + "'s /health/live answered "
                                    + live.statusCode()
                                    + " at " + Invariants.seconds(System.currentTimeMillis(), origin) + ", "
                                    + (System.currentTimeMillis() - outageStart) + "ms into a database outage: "
                                    + live.body().replaceAll("\\s+", " "));
                        }
                    }
                } catch (IOException e) {
                    // not serving: liveness is about a running server
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            try {
                Thread.sleep(1_000);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /**
     * Ends, each with probability one half, the connections of the failure database that are in use: running a
     * statement or inside a transaction. Idle pooled connections are left alone: the pool would hand out a dead
     * one at any later time, and a fault whose effect can come at any time explains nothing. On PostgreSQL the
     * node's LISTEN connection counts as in use.
     */
    private Injected terminate(FaultPlan.Planned fault) throws SQLException {
        Random pick = new Random(fault.pickSeed());
        long start = System.currentTimeMillis();
        int ended = 0;
        List<Long> inUse;
        try (Connection connection = db.connect()) {
            inUse = inUse(connection);
            List<Long> chosen = new ArrayList<>();
            for (long id : inUse) {
                if (pick.nextBoolean()) {
                    chosen.add(id);
                }
            }
            if (chosen.isEmpty() && !inUse.isEmpty()) {
                chosen.add(inUse.get(pick.nextInt(inUse.size())));
            }
            for (long id : chosen) {
                ended += end(connection, id) ? 1 : 0;
            }
        }
        return new Injected(fault, start, System.currentTimeMillis(), "ended " + ended + " of " + inUse.size()
                + " connections in use");
    }

    private List<Long> inUse(Connection connection) throws SQLException {
        String sql = db == TestDatabase.POSTGRESQL
                ? "SELECT pid FROM pg_stat_activity WHERE datname = ? AND pid <> pg_backend_pid() AND (state IN"
                        + " ('active', 'idle in transaction', 'idle in transaction (aborted)')"
                        + " OR application_name = 'jobqueue-listener') ORDER BY pid"
                : "SELECT p.ID FROM information_schema.PROCESSLIST p WHERE p.DB = ? AND p.ID <> CONNECTION_ID()"
                        + " AND (p.COMMAND <> 'Sleep' OR p.ID IN (SELECT trx_mysql_thread_id"
                        + " FROM information_schema.INNODB_TRX)) ORDER BY p.ID";
        List<Long> ids = new ArrayList<>();
        try (PreparedStatement query = connection.prepareStatement(sql)) {
            query.setString(1, TestDatabase.NAME);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getLong(1));
                }
            }
        }
        return ids;
    }

    private boolean end(Connection connection, long id) throws SQLException {
        if (db == TestDatabase.POSTGRESQL) {
            try (PreparedStatement terminate = connection.prepareStatement("SELECT pg_terminate_backend(?)")) {
                terminate.setInt(1, (int) id);
                try (ResultSet row = terminate.executeQuery()) {
                    return row.next() && row.getBoolean(1);
                }
            }
        }
        // KILL takes no parameter; the id is a number the server just gave.
        try (Statement kill = connection.createStatement()) {
            kill.execute("KILL CONNECTION " + id);
            return true;
        } catch (SQLException gone) {
            return false;
        }
    }
}
