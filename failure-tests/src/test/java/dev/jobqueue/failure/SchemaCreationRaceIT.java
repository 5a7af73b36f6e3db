package dev.jobqueue.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jobqueue.internal.store.SchemaCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Nodes started together with {@code jobqueue.schema.create=true} on an empty database all create the schema at
 * once, as a cluster's first deployment or a test formation does. Each must start: none may fail on another's
 * half-made tables. The nodes here are {@link SchemaCheck}s, the class each node's start runs, with connections of
 * their own, released together.
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
}
