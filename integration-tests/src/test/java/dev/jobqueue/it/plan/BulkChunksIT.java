package dev.jobqueue.it.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.JobAdmin;
import dev.jobqueue.it.Deployments;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The retention purge, an operator's retry-failed and an operator's purge each work through a million jobs in
 * transactions of at most 1,000 rows. While one runs, a second session watches the database: the jobs go in
 * steps, many transactions commit along the way, and no transaction gets large (on MariaDB, none changes more
 * than 1,000 job rows plus their group's row; on PostgreSQL, which does not count rows per transaction, none stays
 * open for 5 seconds, while a single statement over a million rows would be open for the whole run). Run on
 * PostgreSQL and MariaDB only.
 */
@ExtendWith(ArquillianExtension.class)
class BulkChunksIT {

    private static final int JOBS = 1_000_000;
    private static final int CHUNK = 1_000;
    /** On MariaDB: rows a chunk changes at most, its jobs and the rows of the groups they emptied. */
    private static final long MAX_ROWS_IN_A_TRANSACTION = CHUNK + 2;
    /** On PostgreSQL: how long a transaction may stay open, in milliseconds; a chunk takes far less. */
    private static final long MAX_TRANSACTION_MILLIS = 5_000;

    @Deployment
    static WebArchive app() {
        return Deployments.war("plan-bulk", "plan", BulkRows.class, RetainedConsumer.class, Watch.class);
    }

    @EJB
    BulkRows rows;

    @Inject
    JobAdmin admin;

    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    ManagedExecutorService executor;

    @Test
    void retention_deletes_a_million_done_jobs_and_their_groups_a_chunk_at_a_time() throws Exception {
        String queue = "bulk-retained";
        rows.clear(queue);
        try {
            rows.fill(queue, "DONE", JOBS);
            analyze();
            assertEquals(JOBS / BulkRows.GROUP_SIZE + 1, rows.groups(queue));

            // The retention purger runs every 30 seconds on its own; the test only watches.
            Watch watch = watch(queue, "DONE", () -> {
                while (rows.count(queue, "DONE") > 0) {
                    Thread.sleep(500);
                }
                return JOBS;
            }, Duration.ofMinutes(10));

            watch.assertChunked(rows.postgres());
            assertEquals(0, rows.groups(queue), "the groups left without jobs lost their rows");
        } finally {
            rows.clear(queue);
        }
    }

    @Test
    void retry_failed_makes_a_million_failed_jobs_pending_a_chunk_at_a_time() throws Exception {
        String queue = "bulk-retried";
        rows.clear(queue);
        try {
            rows.fill(queue, "FAILED", JOBS);
            analyze();

            Watch watch = watch(queue, "FAILED", () -> admin.retryFailed(queue), Duration.ofMinutes(10));

            assertEquals(JOBS, watch.result, "retried");
            assertEquals(JOBS, rows.count(queue, "PENDING"), () -> "states: " + rows.states(queue));
            watch.assertChunked(rows.postgres());
        } finally {
            rows.clear(queue);
        }
    }

    @Test
    void purging_a_million_failed_jobs_deletes_them_a_chunk_at_a_time() throws Exception {
        String queue = "bulk-purged";
        rows.clear(queue);
        try {
            rows.fill(queue, "FAILED", JOBS);
            analyze();

            Watch watch = watch(queue, "FAILED", () -> admin.purgeFailed(queue, Duration.ofDays(1)),
                    Duration.ofMinutes(10));

            assertEquals(JOBS, watch.result, "purged");
            assertEquals(0, rows.count(queue, "FAILED"));
            watch.assertChunked(rows.postgres());
        } finally {
            rows.clear(queue);
        }
    }

    private void analyze() {
        if (rows.postgres()) {
            rows.analyzePostgres();
        } else {
            rows.analyzeMariaDb();
        }
    }

    /** Runs {@code operation} and, until it ends, samples the queue's jobs in {@code state} and the largest transaction. */
    private Watch watch(String queue, String state, Callable<Integer> operation, Duration timeout) throws Exception {
        Watch watch = new Watch();
        long start = System.nanoTime();
        Future<Integer> running = executor.submit(operation);
        while (!running.isDone()) {
            watch.sample(rows.count(queue, state), rows.largestTransaction());
            assertTrue(System.nanoTime() - start < timeout.toNanos(), "still running after " + timeout + ": " + watch);
            Thread.sleep(200);
        }
        watch.result = running.get(0, TimeUnit.SECONDS);
        watch.seconds = (System.nanoTime() - start) / 1e9;
        System.out.println("jobqueue bulk " + queue + " on " + (rows.postgres() ? "postgresql" : "mariadb") + ": "
                + watch);
        return watch;
    }

    /** What a second session saw while a bulk operation ran. */
    static final class Watch {
        final TreeSet<Long> remaining = new TreeSet<>();
        long largest;
        int samples;
        Integer result;
        double seconds;

        void sample(long left, long transaction) {
            remaining.add(left);
            largest = Math.max(largest, transaction);
            samples++;
        }

        /** The jobs went in many steps, and no transaction was large. */
        void assertChunked(boolean postgres) {
            long between = remaining.stream().filter(left -> left > 0 && left < JOBS).count();
            assertTrue(between >= 10, "expected the remaining jobs to fall in many committed steps: " + this);
            if (postgres) {
                assertTrue(largest < MAX_TRANSACTION_MILLIS, "a transaction stayed open " + largest + " ms: " + this);
            } else {
                assertTrue(largest <= MAX_ROWS_IN_A_TRANSACTION, "a transaction changed " + largest + " rows: " + this);
            }
        }

        @Override
        public String toString() {
            return samples + " samples over " + String.format("%.1f", seconds) + " s, " + remaining.size()
                    + " distinct counts left (" + remaining.first() + " to " + remaining.last() + "), largest open"
                    + " transaction " + largest + " (ms on PostgreSQL, rows changed on MariaDB)";
        }
    }
}
