package dev.jobqueue.it.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.JobAdmin;
import dev.jobqueue.it.Await;
import dev.jobqueue.it.Deployments;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The retention purge, an operator's retry-failed and an operator's purge each work through 100,000 jobs in
 * transactions of at most 1,000 jobs, oldest first. The test holds a lock on a job half-way along; when the
 * operation waits for it, everything before that job's chunk has committed, and only that chunk is held back.
 * A single statement over all the jobs would have committed nothing. Run on PostgreSQL and MariaDB only.
 */
@ExtendWith(ArquillianExtension.class)
class BulkChunksIT {

    private static final int JOBS = 100_000;
    private static final int CHUNK = 1_000;
    /**
     * The job whose lock the test holds. {@link BulkRows#fill} makes job {@code n} finish {@code n} ms earlier
     * than job 0, so in finish order it comes after {@value #JOBS} minus {@code n} others: 51,999, the last of
     * the chunk that starts at 51,000 (and not of a chunk of 2,000, which would start at 50,000).
     */
    private static final int LOCKED_JOB = JOBS - 51_999;
    private static final int JOBS_BEFORE_THE_LOCKED_ONE = JOBS - LOCKED_JOB;

    @Deployment
    static WebArchive app() {
        return Deployments.war("plan-bulk", "plan", BulkRows.class, RetainedConsumer.class);
    }

    @EJB
    BulkRows rows;

    @Inject
    JobAdmin admin;

    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    ManagedExecutorService executor;

    @Test
    void retention_deletes_done_jobs_and_their_groups_a_chunk_at_a_time() throws Exception {
        String queue = "bulk-retained";
        rows.clear(queue);
        try {
            rows.fill(queue, "DONE", JOBS);
            analyze();
            // The purger may already have taken a chunk, and with it a group, by the time this counts.
            long groups = rows.groups(queue);
            assertTrue(groups > JOBS / BulkRows.GROUP_SIZE / 2 && groups <= JOBS / BulkRows.GROUP_SIZE + 1,
                    groups + " groups");

            // The retention purger runs every 30 seconds on its own; the test waits for it to empty the queue.
            int done = runAgainstALock(queue, "DONE", () -> {
                return Await.until(() -> rows.count(queue, "DONE") == 0, Duration.ofMinutes(2)) ? JOBS : -1;
            });

            assertEquals(JOBS, done);
            assertEquals(0, rows.groups(queue), "the groups left without jobs lost their rows");
        } finally {
            rows.clear(queue);
        }
    }

    @Test
    void retry_failed_makes_failed_jobs_pending_a_chunk_at_a_time() throws Exception {
        String queue = "bulk-retried";
        rows.clear(queue);
        try {
            rows.fill(queue, "FAILED", JOBS);
            analyze();

            int retried = runAgainstALock(queue, "FAILED", () -> admin.retryFailed(queue));

            assertEquals(JOBS, retried, "retried");
            assertEquals(JOBS, rows.count(queue, "PENDING"), () -> "states: " + rows.states(queue));
        } finally {
            rows.clear(queue);
        }
    }

    @Test
    void purging_failed_jobs_deletes_them_a_chunk_at_a_time() throws Exception {
        String queue = "bulk-purged";
        rows.clear(queue);
        try {
            rows.fill(queue, "FAILED", JOBS);
            analyze();

            int purged = runAgainstALock(queue, "FAILED", () -> admin.purgeFailed(queue, Duration.ofDays(1)));

            assertEquals(JOBS, purged, "purged");
            assertEquals(0, rows.count(queue, "FAILED"));
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

    /**
     * Holds a lock on {@link #LOCKED_JOB} and runs {@code operation}. While the lock is held, the jobs before the
     * locked one's chunk must leave {@code state}, committed, and none after it may: the transaction that waits
     * for the lock holds fewer than a chunk. Then lets go, and returns what the operation returned.
     */
    private int runAgainstALock(String queue, String state, Callable<Integer> operation) throws Exception {
        CountDownLatch locked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Future<?> holder = executor.submit(() -> {
            rows.holdLock(queue + "-" + LOCKED_JOB, locked, release);
            return null;
        });
        try {
            assertTrue(locked.await(30, TimeUnit.SECONDS), "the test could not lock a job");
            Future<Integer> running = executor.submit(operation);
            boolean reached = Await.until(() -> committed(queue, state) > JOBS_BEFORE_THE_LOCKED_ONE - CHUNK
                    || running.isDone(), Duration.ofMinutes(2));
            long committed = committed(queue, state);
            assertTrue(reached && !running.isDone() && committed > JOBS_BEFORE_THE_LOCKED_ONE - CHUNK,
                    "while job " + JOBS_BEFORE_THE_LOCKED_ONE + " in finish order was locked, " + committed
                            + " jobs were committed; expected all but fewer than " + CHUNK + " of those before it");
            Thread.sleep(1_000);
            long later = committed(queue, state);
            System.out.println("jobqueue bulk " + queue + " on " + (rows.postgres() ? "postgresql" : "mariadb")
                    + ": job " + JOBS_BEFORE_THE_LOCKED_ONE + " in finish order locked, " + committed
                    + " jobs before it committed, " + later + " a second later");
            assertTrue(later <= JOBS_BEFORE_THE_LOCKED_ONE && !running.isDone(), "the operation went past job "
                    + JOBS_BEFORE_THE_LOCKED_ONE + " in finish order, which it could not lock: " + later);

            release.countDown();
            holder.get(1, TimeUnit.MINUTES);
            return running.get(5, TimeUnit.MINUTES);
        } finally {
            release.countDown();
        }
    }

    private long committed(String queue, String state) {
        return JOBS - rows.count(queue, state);
    }
}
