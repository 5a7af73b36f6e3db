package dev.jobqueue.bench;

import dev.jobqueue.JobAdmin;
import dev.jobqueue.JobOptions;
import dev.jobqueue.JobQueue;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.transaction.UserTransaction;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Future;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import java.util.stream.IntStream;
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
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    /** As many putters as the limit has committing threads and the drain has consumers. */
    private static final int PUT_THREADS = 4;
    /**
     * Seconds of puts before a latency measurement, not counted. Without them the consumer's node started its
     * first seconds of a new path cold: at 200/s on a node that had drained nothing, over 20 ms for up to 12 s.
     */
    private static final int LATENCY_WARM_UP_SECONDS = 5;
    /**
     * Jobs put at {@link #COMPILE_WARM_UP_RATE} before those seconds, so that the JIT compiler has compiled the
     * path: a node that had run nothing was still compiling (C2 busy on a quarter of a core) after its first 5,000
     * jobs at 200/s, and its p99 across nodes fell from 51 to 9 ms over its next 10,000.
     */
    private static final int COMPILE_WARM_UP_JOBS = 10_000;
    private static final int COMPILE_WARM_UP_RATE = 1_000;

    @Inject
    JobQueue jobs;

    @Inject
    JobAdmin admin;

    @Inject
    Progress progress;

    @Inject
    RetryTimes retryTimes;

    @Resource(lookup = "java:comp/UserTransaction")
    UserTransaction transaction;

    @Resource(lookup = "java:comp/DefaultDataSource")
    DataSource dataSource;

    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    ManagedExecutorService executor;

    /**
     * Puts {@code jobs} jobs on a paused queue, then resumes it and times the drain. With {@code nodes}, the
     * comma-separated URLs of other nodes that consume the queue too, the jobs all of them ran are counted.
     */
    @POST
    @Path("drain")
    public Map<String, Object> drain(@QueryParam("queue") String queue, @QueryParam("jobs") int count,
            @QueryParam("nodes") String nodes) throws Exception {
        List<String> others = nodes == null || nodes.isBlank() ? List.of() : List.of(nodes.split(","));
        admin.pause(queue);
        deleteJobs(queue);
        enqueue(queue, count, PUTS_PER_ENQUEUE_TRANSACTION);
        progress.reset(queue);
        for (String node : others) {
            send(HttpRequest.newBuilder(URI.create(node + "/reset?queue=" + queue)).POST(HttpRequest.BodyPublishers.noBody()));
        }
        Thread.sleep(STATS_SETTLE_MILLIS);
        long commitsBefore = commits();
        long start = System.nanoTime();
        admin.resume(queue);
        while (doneOnAllNodes(queue, others) < count) {
            // Asking the other nodes costs a request each, so they are asked less often.
            Thread.sleep(others.isEmpty() ? 2 : 20);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        Thread.sleep(STATS_SETTLE_MILLIS);
        long commitsAfter = commits();
        deleteJobs(queue);
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("jobs", count);
        result.put("seconds", seconds);
        result.put("jobsPerSecond", count / seconds);
        result.put("transactionsPerJob", commitsAfter < 0 ? -1 : (double) (commitsAfter - commitsBefore) / count);
        return result;
    }

    /** How many jobs of {@code queue} this node has finished since its last reset. */
    @GET
    @Path("done")
    public long done(@QueryParam("queue") String queue) {
        return progress.done(queue);
    }

    /** Forgets the jobs of {@code queue} this node has finished. */
    @POST
    @Path("reset")
    public void reset(@QueryParam("queue") String queue) {
        progress.reset(queue);
    }

    private long doneOnAllNodes(String queue, List<String> others) throws Exception {
        long done = progress.done(queue);
        for (String node : others) {
            done += Long.parseLong(send(HttpRequest.newBuilder(URI.create(node + "/done?queue=" + queue)).GET()).trim());
        }
        return done;
    }

    /** Puts {@code jobs} jobs from 4 threads, {@code perTransaction} to a transaction, on a queue nobody consumes. */
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

    /**
     * Puts {@code jobs} jobs from 4 threads with one {@code putAll} of {@code perTransaction} payloads per
     * transaction, on a queue nobody consumes.
     */
    @POST
    @Path("enqueue-bulk")
    public Map<String, Object> enqueueBulkRate(@QueryParam("jobs") int count,
            @QueryParam("perTransaction") int perTx) throws Exception {
        String queue = "bench-enqueue";
        deleteJobs(queue);
        long start = System.nanoTime();
        inTransactions(count / perTx, 1, call -> jobs.putAll(queue,
                IntStream.range(call * perTx, (call + 1) * perTx).boxed().toList(), JobOptions.defaults()));
        double seconds = (System.nanoTime() - start) / 1e9;
        deleteJobs(queue);
        return Map.of("jobs", count, "perTransaction", perTx, "putsPerSecond", count / seconds);
    }

    /**
     * Puts {@code jobs} jobs on {@code queue}, which nobody consumes, with one {@code putAll} of 1,000 per
     * transaction from 4 threads, and leaves them there: the dashboard's measurement of a table filled that way.
     */
    @POST
    @Path("put-bulk")
    public Map<String, Object> putBulk(@QueryParam("queue") String queue, @QueryParam("jobs") int count)
            throws Exception {
        int perTx = PUTS_PER_ENQUEUE_TRANSACTION;
        long start = System.nanoTime();
        inTransactions(count / perTx, 1, call -> jobs.putAll(queue,
                IntStream.range(call * perTx, (call + 1) * perTx).boxed().toList(), JobOptions.defaults()));
        return Map.of("jobs", count / perTx * perTx, "seconds", (System.nanoTime() - start) / 1e9);
    }

    /**
     * What the server itself costs a put: the same 4 threads and container-managed transactions as
     * {@link #enqueueRate} at one job per transaction, each inserting the row a put inserts with plain JDBC on the
     * server's pooled connection, without jobqueue. A put can be no faster than this.
     */
    @POST
    @Path("insert-in-server")
    public Map<String, Object> insertInServerRate(@QueryParam("jobs") int count) throws Exception {
        String queue = "bench-insert-in-server";
        deleteJobs(queue);
        long start = System.nanoTime();
        inTransactions(count, 1, i -> insertJobRow(queue, i));
        double seconds = (System.nanoTime() - start) / 1e9;
        deleteJobs(queue);
        return Map.of("jobs", count, "insertsPerSecond", count / seconds);
    }

    /**
     * What the server itself costs a transactional job's completion: the same 4 threads and container transactions
     * as the drain's runners, each marking one RUNNING job row DONE on the server's pooled connection with the
     * statement jobqueue's finish runs, without jobqueue: no claim, no consumer call, no bookkeeping. The default
     * consumer's drain can be no faster than this.
     */
    @POST
    @Path("finish-in-server")
    public Map<String, Object> finishInServerRate(@QueryParam("jobs") int count) throws Exception {
        String queue = "bench-finish-in-server";
        deleteJobs(queue);
        try (Connection connection = dataSource.getConnection();
                PreparedStatement fill = connection.prepareStatement("INSERT INTO jobqueue_job (id, queue, state,"
                        + " payload, attempts, priority, run_at, created_at, started_at, lease_token, lease_expires_at)"
                        + " SELECT 'finish-' || n, ?, 'RUNNING', '1', 1, 0, now(), now(), now(), 'lease-' || n,"
                        + " now() + interval '1 hour' FROM generate_series(0, ? - 1) n")) {
            fill.setString(1, queue);
            fill.setInt(2, count);
            fill.executeUpdate();
        }
        long start = System.nanoTime();
        inTransactions(count, 1, this::finishJobRow);
        double seconds = (System.nanoTime() - start) / 1e9;
        deleteJobs(queue);
        return Map.of("jobs", count, "finishesPerSecond", count / seconds);
    }

    /** jobqueue's DONE of a job no other job waits for, with DONE jobs retained (SqlFinishStore). */
    private void finishJobRow(int n) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement finish = connection.prepareStatement("UPDATE jobqueue_job SET state = 'DONE',"
                        + " finished_at = ?, lease_token = NULL, lease_expires_at = NULL, last_error = NULL"
                        + " WHERE id = ? AND lease_token = ? AND state = 'RUNNING' AND has_dependents = FALSE")) {
            finish.setObject(1, OffsetDateTime.now(ZoneOffset.UTC));
            finish.setString(2, "finish-" + n);
            finish.setString(3, "lease-" + n);
            if (finish.executeUpdate() != 1) {
                throw new IllegalStateException("no RUNNING row finish-" + n);
            }
        }
    }

    /** The row and statement of a put with no dedupe key, ordering key or group, as jobqueue's store writes it. */
    private void insertJobRow(String queue, int payload) throws SQLException {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection.prepareStatement("INSERT INTO jobqueue_job (id, queue, state,"
                        + " payload, attempts, priority, run_at, created_at, dedupe_key, ordering_key, group_name)"
                        + " VALUES (?, ?, 'PENDING', ?, 0, ?, ?, ?, ?, ?, ?)")) {
            insert.setString(1, UUID.randomUUID().toString());
            insert.setString(2, queue);
            insert.setString(3, Integer.toString(payload));
            insert.setInt(4, 0);
            insert.setObject(5, now);
            insert.setObject(6, now);
            insert.setNull(7, Types.VARCHAR);
            insert.setNull(8, Types.VARCHAR);
            insert.setNull(9, Types.VARCHAR);
            insert.executeUpdate();
        }
    }

    /**
     * Puts one job per transaction at a steady rate and measures commit-to-start latency on this node, after
     * {@link #COMPILE_WARM_UP_JOBS} at {@link #COMPILE_WARM_UP_RATE} and {@link #LATENCY_WARM_UP_SECONDS} of the
     * same, not counted.
     */
    @POST
    @Path("latency")
    public Map<String, Object> latency(@QueryParam("rate") int rate, @QueryParam("seconds") int seconds)
            throws Exception {
        latencyHere(COMPILE_WARM_UP_RATE, COMPILE_WARM_UP_JOBS);
        latencyHere(rate, rate * LATENCY_WARM_UP_SECONDS);
        return latencyHere(rate, rate * seconds);
    }

    private Map<String, Object> latencyHere(int rate, int count) throws Exception {
        String queue = "bench-latency";
        deleteJobs(queue);
        expect(queue, count);
        long[] committed = putAtRate(queue, rate, count, System::nanoTime);
        long[] started = starts(queue, count);
        deleteJobs(queue);
        return percentiles(rate, committed, started, 1_000);
    }

    /**
     * The same with the consumer on the second node at {@code remote}, which alone consumes bench-remote.
     * Times are wall-clock microseconds, which both JVMs on this machine share.
     */
    @POST
    @Path("latency-remote")
    public Map<String, Object> latencyRemote(@QueryParam("rate") int rate, @QueryParam("seconds") int seconds,
            @QueryParam("remote") String remote) throws Exception {
        latencyThere(COMPILE_WARM_UP_RATE, COMPILE_WARM_UP_JOBS, remote);
        latencyThere(rate, rate * LATENCY_WARM_UP_SECONDS, remote);
        return latencyThere(rate, rate * seconds, remote);
    }

    private Map<String, Object> latencyThere(int rate, int count, String remote) throws Exception {
        String queue = "bench-remote";
        deleteJobs(queue);
        send(HttpRequest.newBuilder(URI.create(remote + "/expect?queue=" + queue + "&count=" + count))
                .POST(HttpRequest.BodyPublishers.noBody()));
        long[] committed = putAtRate(queue, rate, count, EpochMicros::now);
        String started = send(HttpRequest.newBuilder(URI.create(remote + "/starts?queue=" + queue + "&count=" + count))
                .GET());
        deleteJobs(queue);
        try (Jsonb jsonb = JsonbBuilder.create()) {
            return percentiles(rate, committed, jsonb.fromJson(started, long[].class), 1);
        }
    }

    /**
     * Puts jobs that fail their first attempt at a steady rate on {@code queue} (bench-retry, which both nodes
     * consume with a 1 s backoff, or bench-retry-one-node) and measures how late each retry started: from the
     * due time the failed attempt set to the retry's start, on whichever node ran it. A first round of 2 s, not
     * counted, warms the nodes up.
     */
    @POST
    @Path("retry-lateness")
    public Map<String, Object> retryLateness(@QueryParam("queue") String queue, @QueryParam("rate") int rate,
            @QueryParam("seconds") int seconds, @QueryParam("remote") String remote) throws Exception {
        retryRound(queue, rate * 2, rate, remote);
        int count = rate * seconds;
        List<RetryTimes.Seen> nodes = retryRound(queue, count, rate, remote);
        long[] lateness = new long[count];
        Arrays.fill(lateness, Long.MAX_VALUE);
        int index = 0;
        int onTheOtherNode = 0;
        for (RetryTimes.Seen node : nodes) {
            RetryTimes.Seen other = nodes.get(node == nodes.get(0) ? 1 : 0);
            for (Map.Entry<String, Long> start : node.started().entrySet()) {
                boolean failedElsewhere = !node.due().containsKey(start.getKey());
                Long due = (failedElsewhere ? other : node).due().get(start.getKey());
                if (due != null) {
                    onTheOtherNode += failedElsewhere ? 1 : 0;
                    lateness[index++] = Math.max(0, start.getValue() - due);
                }
            }
        }
        Map<String, Object> result = percentiles(lateness);
        result.put("rate", rate);
        result.put("jobs", count);
        result.put("retriedOnTheOtherNode", onTheOtherNode);
        return result;
    }

    /** Puts {@code count} jobs on {@code queue} at {@code rate} per second and answers what each node saw of them. */
    private List<RetryTimes.Seen> retryRound(String queue, int count, int rate, String remote) throws Exception {
        deleteJobs(queue);
        retryReset();
        send(HttpRequest.newBuilder(URI.create(remote + "/retry-reset")).POST(HttpRequest.BodyPublishers.noBody()));
        putAtRate(queue, rate, count, EpochMicros::now);
        RetryTimes.Seen here = retryTimes.snapshot();
        RetryTimes.Seen there = new RetryTimes.Seen(Map.of(), Map.of());
        long deadline = System.nanoTime() + 30_000_000_000L;
        try (Jsonb jsonb = JsonbBuilder.create()) {
            while (here.started().size() + there.started().size() < count && System.nanoTime() < deadline) {
                Thread.sleep(100);
                here = retryTimes.snapshot();
                there = jsonb.fromJson(send(HttpRequest.newBuilder(URI.create(remote + "/retry-times")).GET()),
                        RetryTimes.Seen.class);
            }
        }
        deleteJobs(queue);
        return List.of(here, there);
    }

    /** Forgets the retries this node has seen. */
    @POST
    @Path("retry-reset")
    public void retryReset() {
        retryTimes.reset();
    }

    /** When each retry that failed here was due, and when each retry that ran here started. */
    @GET
    @Path("retry-times")
    public RetryTimes.Seen retryTimes() {
        return retryTimes.snapshot();
    }

    /** Prepares this node to record the starts of {@code count} jobs of {@code queue}. */
    @POST
    @Path("expect")
    public void expect(@QueryParam("queue") String queue, @QueryParam("count") int count) {
        progress.expectLatencyJobs(count);
        progress.reset(queue);
    }

    /** When each of the {@code count} jobs started, once all have (or after 30 s); 0 for a job that did not. */
    @GET
    @Path("starts")
    public long[] starts(@QueryParam("queue") String queue, @QueryParam("count") int count)
            throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (progress.done(queue) < count && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        return progress.starts(count);
    }

    private long[] putAtRate(String queue, int rate, int count, LongSupplier clock) throws Exception {
        long[] committed = new long[count];
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
            committed[i] = clock.getAsLong();
            next += interval;
        }
        return committed;
    }

    /** Commit-to-start percentiles; {@code perMicro} converts the clock's unit to microseconds. */
    private static Map<String, Object> percentiles(int rate, long[] committed, long[] started, long perMicro) {
        int count = committed.length;
        long[] micros = new long[count];
        for (int i = 0; i < count; i++) {
            // A consumer may start before commit() has returned to the putter; that counts as 0.
            micros[i] = started[i] == 0 ? Long.MAX_VALUE : Math.max(0, (started[i] - committed[i]) / perMicro);
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("rate", rate);
        result.put("jobs", count);
        result.put("over20MillisBySecond", slowBySecond(micros, rate));
        result.putAll(percentiles(micros));
        return result;
    }

    /**
     * How many starts took over 20 ms, by second of the run (jobs were put {@code rate} a second), so that a tail
     * can be told apart from a slow start of the run.
     */
    private static String slowBySecond(long[] micros, int rate) {
        StringBuilder seconds = new StringBuilder();
        for (int from = 0; from < micros.length; from += rate) {
            long slow = Arrays.stream(micros, from, Math.min(micros.length, from + rate)).filter(m -> m > 20_000).count();
            seconds.append(seconds.isEmpty() ? "" : " ").append(slow);
        }
        return seconds.toString();
    }

    /** Percentiles of {@code micros}, in milliseconds; {@code Long.MAX_VALUE} stands for a job that never started. */
    private static Map<String, Object> percentiles(long[] micros) {
        int count = micros.length;
        Arrays.sort(micros);
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("p50Millis", micros[count / 2] / 1000.0);
        result.put("p95Millis", micros[(int) (count * 0.95)] / 1000.0);
        result.put("p99Millis", micros[(int) (count * 0.99)] / 1000.0);
        result.put("maxMillis", micros[count - 1] == Long.MAX_VALUE ? -1 : micros[count - 1] / 1000.0);
        return result;
    }

    private static String send(HttpRequest.Builder request) throws Exception {
        HttpResponse<String> response = HTTP.send(request.timeout(Duration.ofMinutes(2)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            throw new IllegalStateException(response.uri() + " answered " + response.statusCode());
        }
        return response.body();
    }

    /** Puts jobs 0 to {@code count - 1} from {@link #PUT_THREADS} threads, {@code perTransaction} to a transaction. */
    private void enqueue(String queue, int count, int perTransaction) throws Exception {
        inTransactions(count, perTransaction, j -> jobs.put(queue, j));
    }

    /** One step of {@link #inTransactions}, given its number. */
    @FunctionalInterface
    private interface Step {
        void run(int number) throws Exception;
    }

    /** Runs steps 0 to {@code count - 1} from {@link #PUT_THREADS} threads, {@code perTransaction} to a transaction. */
    private void inTransactions(int count, int perTransaction, Step step) throws Exception {
        List<Future<?>> putters = new ArrayList<>();
        for (int thread = 0; thread < PUT_THREADS; thread++) {
            int first = thread * perTransaction;
            putters.add(executor.submit(() -> {
                for (int i = first; i < count; i += PUT_THREADS * perTransaction) {
                    transaction.begin();
                    for (int j = i; j < Math.min(count, i + perTransaction); j++) {
                        step.run(j);
                    }
                    transaction.commit();
                }
                return null;
            }));
        }
        for (Future<?> putter : putters) {
            putter.get();
        }
    }

    private void deleteJobs(String queue) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement delete = connection.prepareStatement("DELETE FROM jobqueue_job WHERE queue = ?")) {
            delete.setString(1, queue);
            delete.executeUpdate();
        }
    }

    /** The database's commits so far, from pg_stat_database; -1 on MariaDB, which counts none that compare. */
    private long commits() throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            if (!connection.getMetaData().getDatabaseProductName().equals("PostgreSQL")) {
                return -1;
            }
        }
        try (Connection connection = dataSource.getConnection();
                PreparedStatement query = connection.prepareStatement(
                        "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()");
                ResultSet row = query.executeQuery()) {
            row.next();
            return row.getLong(1);
        }
    }
}
