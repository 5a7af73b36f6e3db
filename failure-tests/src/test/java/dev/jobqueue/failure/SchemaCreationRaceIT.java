package dev.jobqueue.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jobqueue.internal.store.SchemaCheck;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Nodes started together with {@code jobqueue.schema.create=true} on an empty database all create the schema at
 * once, as a cluster's first deployment or a test formation does. Each must start: none may fail on another's
 * half-made tables. The nodes here are {@link SchemaCheck}s, the class each node's start runs, with connections of
 * their own, released together. And a node that starts beside running ones must start though its schema script
 * deadlocks with their transactions.
 */
class SchemaCreationRaceIT {

    private static final int NODES = 4;
    private static final int ROUNDS = 5;

    private final TestDatabase db = TestDatabase.fromSystemProperty();

    @Test
    void nodesCreatingTheSchemaAtOnceAllStart() throws Exception {
        ExecutorService nodes = Executors.newFixedThreadPool(NODES);
        try {
            for (int round = 1; round <= ROUNDS; round++) {
                db.recreate();
                CyclicBarrier together = new CyclicBarrier(NODES);
                List<Future<?>> starts = new ArrayList<>();
                for (int node = 0; node < NODES; node++) {
                    starts.add(nodes.submit(() -> {
                        SchemaCheck schema = new SchemaCheck(db.dataSource());
                        together.await();
                        schema.verify(true);
                        return null;
                    }));
                }
                List<String> failures = new ArrayList<>();
                for (Future<?> start : starts) {
                    try {
                        start.get(5, TimeUnit.MINUTES);
                    } catch (java.util.concurrent.ExecutionException e) {
                        failures.add(String.valueOf(e.getCause()));
                    }
                }
                assertEquals(List.of(), failures, "round " + round + ": nodes whose schema creation failed");
                new SchemaCheck(db.dataSource()).verify(false);
            }
        } finally {
            nodes.shutdownNow();
        }
    }

    /**
     * On PostgreSQL the schema script is one transaction, so it holds the exclusive lock its {@code ALTER TABLE
     * jobqueue_job} took while it goes on to {@code ALTER TABLE jobqueue_queue}. A running node's transaction that
     * has read jobqueue_queue and then reads jobqueue_job (as a claim can) deadlocks with it, and PostgreSQL ends the
     * script's transaction: the starting node must try again rather than fail its deployment (a restarted node in
     * RandomFaultsIT did).
     */
    @Test
    void aNodeWhoseSchemaScriptDeadlocksWithARunningNodeStillStarts() throws Exception {
        assumeTrue(db == TestDatabase.POSTGRESQL, "the script is one transaction on PostgreSQL only");
        db.recreate();
        new SchemaCheck(db.dataSource()).verify(true);
        try (Connection running = db.connect(); Statement sql = running.createStatement()) {
            running.setAutoCommit(false);
            sql.execute("LOCK TABLE jobqueue_queue IN ACCESS SHARE MODE");
            CompletableFuture<Void> start = CompletableFuture.runAsync(() -> new SchemaCheck(dataSource()).verify(true));
            assertTrue(waitsForExclusiveLockOn("jobqueue_queue"), "the schema script waits for jobqueue_queue");
            try {
                sql.execute("LOCK TABLE jobqueue_job IN ACCESS SHARE MODE");
            } catch (SQLException chosenAsTheDeadlockVictim) {
                running.rollback();
            }
            running.commit();
            start.get(2, TimeUnit.MINUTES);
        }
        new SchemaCheck(db.dataSource()).verify(false);
    }

    private javax.sql.DataSource dataSource() {
        try {
            return db.dataSource();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private boolean waitsForExclusiveLockOn(String table) throws Exception {
        try (Connection watcher = db.connect(); Statement sql = watcher.createStatement()) {
            for (int i = 0; i < 300; i++) {
                try (ResultSet waiting = sql.executeQuery("SELECT count(*) FROM pg_locks WHERE NOT granted"
                        + " AND mode = 'AccessExclusiveLock' AND relation = '" + table + "'::regclass")) {
                    waiting.next();
                    if (waiting.getInt(1) > 0) {
                        return true;
                    }
                }
                Thread.sleep(20);
            }
            return false;
        }
    }
}
