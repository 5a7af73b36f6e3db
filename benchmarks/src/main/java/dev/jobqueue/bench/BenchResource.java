package dev.jobqueue.bench;

import dev.jobqueue.JobAdmin;
import dev.jobqueue.JobQueue;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.transaction.UserTransaction;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;

/**
 * Runs one measurement per request inside the server, where the puts and consumers are, and answers with
 * its numbers. The runner calls it and prints the table. Not for production: it has no security.
 */
@Path("/")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class BenchResource {

    /** pg_stat_database is flushed by idle backends within 10 s. */
    private static final long STATS_SETTLE_MILLIS = 11_000;
    private static final int PUTS_PER_ENQUEUE_TRANSACTION = 1_000;

    @Inject
    JobQueue jobs;

    @Inject
    JobAdmin admin;

    @Inject
    Progress progress;

    @Resource(lookup = "java:comp/UserTransaction")
    UserTransaction transaction;

    @Resource(lookup = "java:comp/DefaultDataSource")
    DataSource dataSource;

    /** Puts {@code jobs} jobs on a paused queue, then resumes it and times the drain. */
    @POST
    @Path("drain")
    public Map<String, Object> drain(@QueryParam("queue") String queue, @QueryParam("jobs") int count)
            throws Exception {
        admin.pause(queue);
        deleteJobs(queue);
        enqueue(queue, count, PUTS_PER_ENQUEUE_TRANSACTION);
        progress.reset(queue);
        Thread.sleep(STATS_SETTLE_MILLIS);
        long commitsBefore = commits();
        long start = System.nanoTime();
        admin.resume(queue);
        while (progress.done(queue) < count) {
            Thread.sleep(2);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        Thread.sleep(STATS_SETTLE_MILLIS);
        long commits = commits() - commitsBefore;
        deleteJobs(queue);
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("jobs", count);
        result.put("seconds", seconds);
        result.put("jobsPerSecond", count / seconds);
        result.put("transactionsPerJob", (double) commits / count);
        return result;
    }

    /** Puts {@code jobs} jobs, {@code perTransaction} to a transaction, on a queue nobody consumes. */
    @POST
    @Path("enqueue")
    public Map<String, Object> enqueueRate(@QueryParam("jobs") int count, @QueryParam("perTransaction") int perTx)
            throws Exception {
        String queue = "bench-enqueue";
        deleteJobs(queue);
        long start = System.nanoTime();
        enqueue(queue, count, perTx);
        double seconds = (System.nanoTime() - start) / 1e9;
        deleteJobs(queue);
        return Map.of("jobs", count, "perTransaction", perTx, "putsPerSecond", count / seconds);
    }

    /** Puts one job per transaction at a steady rate and measures commit-to-start latency. */
    @POST
    @Path("latency")
    public Map<String, Object> latency(@QueryParam("rate") int rate, @QueryParam("seconds") int seconds)
            throws Exception {
        String queue = "bench-latency";
        deleteJobs(queue);
        int count = rate * seconds;
        long[] committed = new long[count];
        progress.expectLatencyJobs(count);
        progress.reset(queue);
        long interval = 1_000_000_000L / rate;
        long next = System.nanoTime();
        for (int i = 0; i < count; i++) {
            long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            transaction.begin();
            jobs.put(queue, i);
            transaction.commit();
            committed[i] = System.nanoTime();
            next += interval;
        }
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (progress.done(queue) < count && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        long[] micros = new long[count];
        for (int i = 0; i < count; i++) {
            long started = progress.startOf(i);
            // A consumer may start before commit() has returned to the putter; that counts as 0.
            micros[i] = started == 0 ? Long.MAX_VALUE : Math.max(0, (started - committed[i]) / 1_000);
        }
        Arrays.sort(micros);
        deleteJobs(queue);
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("rate", rate);
        result.put("jobs", count);
        result.put("p50Millis", micros[count / 2] / 1000.0);
        result.put("p95Millis", micros[(int) (count * 0.95)] / 1000.0);
        result.put("p99Millis", micros[(int) (count * 0.99)] / 1000.0);
        result.put("maxMillis", micros[count - 1] == Long.MAX_VALUE ? -1 : micros[count - 1] / 1000.0);
        return result;
    }

    private void enqueue(String queue, int count, int perTransaction) throws Exception {
        for (int i = 0; i < count; i += perTransaction) {
            transaction.begin();
            for (int j = i; j < Math.min(count, i + perTransaction); j++) {
                jobs.put(queue, j);
            }
            transaction.commit();
        }
    }

    private void deleteJobs(String queue) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement delete = connection.prepareStatement("DELETE FROM jobqueue_job WHERE queue = ?")) {
            delete.setString(1, queue);
            delete.executeUpdate();
        }
    }

    private long commits() throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement query = connection.prepareStatement(
                        "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()");
                ResultSet row = query.executeQuery()) {
            row.next();
            return row.getLong(1);
        }
    }
}
