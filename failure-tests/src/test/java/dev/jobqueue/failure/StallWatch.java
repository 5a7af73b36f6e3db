package dev.jobqueue.failure;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Diagnostics for the random run, not an invariant. Once no fault has been under way for {@value #QUIET_MILLIS}
 * ms, a node that has started no job for that long while jobs are PENDING is sent SIGQUIT, so that the JVM
 * writes a thread dump to the node's console.log, and a STALL line is printed. A stalled node's leases run out,
 * so a stall shows up as attempts no fault explains; the dump says where its threads were.
 */
final class StallWatch implements AutoCloseable {

    private static final long QUIET_MILLIS = 30_000;

    private final TestDatabase db;
    private final List<ServerNode> nodes;
    private final FaultInjector injector;
    private final long origin;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final Map<String, Long> dumpedAt = new HashMap<>();
    private final AtomicInteger stalls = new AtomicInteger();

    StallWatch(TestDatabase db, List<ServerNode> nodes, FaultInjector injector, long origin) {
        this.db = db;
        this.nodes = nodes;
        this.injector = injector;
        this.origin = origin;
        timer.scheduleWithFixedDelay(this::look, 5, 5, TimeUnit.SECONDS);
    }

    /** How many times a node was found stalled. */
    int stalls() {
        return stalls.get();
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }

    private void look() {
        long now = System.currentTimeMillis();
        long quietSince = injector.quietSince();
        if (now - quietSince < QUIET_MILLIS) {
            return;
        }
        try (Connection connection = db.connect()) {
            if (count(connection, "SELECT COUNT(*) FROM jobqueue_job WHERE queue LIKE 'rf-%' AND state = 'PENDING'")
                    == 0) {
                return;
            }
            for (ServerNode node : nodes) {
                long lastStart = Math.max(quietSince, lastStart(connection, node));
                if (now - lastStart > QUIET_MILLIS && now - dumpedAt.getOrDefault(node.label, 0L) > 2 * QUIET_MILLIS) {
                    dumpedAt.put(node.label, now);
                    stalls.incrementAndGet();
                    System.out.println("STALL at " + Invariants.seconds(now, origin) + ": node " + node.label
                            + " has started no job since " + Invariants.seconds(lastStart, origin) + " while jobs are"
                            + " PENDING and no fault is under way; its thread dump is in its console.log");
                    node.signal("QUIT");
                }
            }
        } catch (Exception e) {
            System.out.println("stall watch: " + e);
        }
    }

    private static long lastStart(Connection connection, ServerNode node) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement("SELECT MAX(at_millis) FROM rf_log WHERE node = ?"
                + " AND event = 'start'")) {
            query.setString(1, node.label);
            try (ResultSet row = query.executeQuery()) {
                return row.next() ? row.getLong(1) : 0;
            }
        }
    }

    private static long count(Connection connection, String sql) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(sql); ResultSet row = query.executeQuery()) {
            row.next();
            return row.getLong(1);
        }
    }
}
