package dev.jobqueue.bench.runner;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Measures the database's own commit limit, then asks the benchmark application on the nodes (Liberty, or WildFly
 * with {@code -Pbench,wildfly}) for each jobqueue measurement, and prints them side by side. Started by
 * {@code ./mvnw -Pbench -pl benchmarks -am verify}. On MariaDB ({@code -Pbench,mariadb}) it measures jobqueue's drains
 * against MariaDB's limit alone: the peers, pgbench and the job-row limits are PostgreSQL's.
 */
public final class BenchmarkRunner {

    private static final String DATABASE = System.getProperty("bench.db.name", "test");
    /** The nodes' database, which the runner measures too: postgresql, or mariadb with -Pbench,mariadb. */
    private static final boolean MARIADB = System.getProperty("bench.database", "postgresql").equals("mariadb");
    private static final String JDBC_URL = MARIADB ? "jdbc:mariadb://127.0.0.1:3306/" + DATABASE
            : "jdbc:postgresql://127.0.0.1:5432/" + DATABASE;
    private static final String JDBC_USER = System.getProperty("bench.jdbc.user", MARIADB ? "root" : "postgres");
    private static final int LIMIT_THREADS = 4;
    /** As the benchmark's nodes: 4 consumer threads and 10 pooled connections. */
    private static final int DRAIN_THREADS = 4;
    private static final int DRAIN_CONNECTIONS = 10;
    /** Jobs each system drains, unmeasured, before the measured drains: its JIT compiler then has done its work. */
    private static final int WARM_UP_JOBS = 5_000;
    private static final int ENQUEUE_JOBS = 20_000;
    private static final int BULK_JOBS = 200_000;
    private static final int BULK_PER_TRANSACTION = 1_000;
    private static final int ENQUEUE_WARM_UP_ROUNDS = 4;
    /** jobqueue's drained queues (see BenchConsumers), with what the table calls each and what its DONE guarantees. */
    private static final Map<String, String> OUR_DRAINS = orderedMap(
            "bench-tx", "jobqueue, transactional consumer, DONE kept for a day (the default) (exactly-once database effects)",
            "bench-tx-unretained", "jobqueue, transactional consumer, retention = 0s: DONE deleted (exactly-once database effects)",
            "bench-tx-grouped", "jobqueue, transactional consumer, jobsPerTransaction = 10 (exactly-once database effects)",
            "bench-tx-limited", "jobqueue, transactional consumer, rate-limit = 1000000/1s, never binding (exactly-once database effects)",
            "bench-batch", "jobqueue, batch consumer, jobsPerCall = 50 (exactly-once database effects)",
            "bench-nontx", "jobqueue, non-transactional consumer (at least once)");
    /** The tables the vacuum thread keeps clean: jobqueue's and the peers'. */
    private static final List<String> QUEUE_TABLES = List.of("jobqueue_job", DbSchedulerDrain.TABLE, "jobrunr_jobs");
    private static final Duration LIMIT_DURATION = Duration.ofSeconds(10);
    private static final Duration VACUUM_EVERY = Duration.ofSeconds(5);
    private static final int RETRY_RATE = 17;
    private static final int RETRY_SECONDS = 12;

    private final boolean autovacuum;
    private final String url = System.getProperty("bench.url", "http://localhost:9280/bench");
    private final String remoteUrl = System.getProperty("bench.remote.url", "http://localhost:9282/bench");
    private final String thirdUrl = System.getProperty("bench.third.url", "http://localhost:9284/bench");
    private final int jobs = Integer.getInteger("bench.jobs", 100_000);
    private final int latencySeconds = Integer.getInteger("bench.latency.seconds", 30);
    private final int dashboardRows = Integer.getInteger("bench.dashboard.rows", 1_000_000);
    /** The server the nodes run, for the table's heading. */
    private final String server = System.getProperty("bench.server", "Open Liberty");
    /**
     * Which measurements to take besides the limit: drain, enqueue, latency and retry unless -Dbench.only lists
     * others; scaling and dashboard only when it lists them.
     */
    private final List<String> asked = List.of(System.getProperty("bench.only", "drain,enqueue,latency,retry").split(","));
    /** The measurements the server's nodes are set up for (-Dbench.server.measures); all unless it says. */
    private final List<String> measurable = List.of(System.getProperty("bench.server.measures",
            "drain,jms,enqueue,latency,retry,scaling,dashboard").split(","));
    private final List<String> only = asked.stream().filter(measurable::contains).toList();
    private final List<String> skipped = asked.stream().filter(measurement -> !measurable.contains(measurement)).toList();
    /** The drains of jobqueue's queues to take (-Dbench.drains, comma-separated queues); all unless it says. */
    private final List<String> drainedQueues = List.of(System.getProperty("bench.drains",
            String.join(",", OUR_DRAINS.keySet())).split(","));
    /** Whether the drains include JobRunr's (-Dbench.jobrunr=false to leave it out: at its rate it takes minutes). */
    private final boolean jobRunrDrain = Boolean.parseBoolean(System.getProperty("bench.jobrunr", "true"));
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private BenchmarkRunner() throws SQLException {
        this.autovacuum = autovacuumOn();
        drainedQueues.stream().filter(queue -> !OUR_DRAINS.containsKey(queue)).findFirst().ifPresent(queue -> {
            throw new IllegalArgumentException("bench.drains names " + queue + ", which is none of the drained queues "
                    + OUR_DRAINS.keySet());
        });
    }

    public static void main(String[] args) throws Exception {
        new BenchmarkRunner().run();
    }

    private void run() throws Exception {
        if (!skipped.isEmpty()) {
            System.out.println("benchmark: " + skippedNote());
        }
        List<String> rows = new ArrayList<>();
        double limit = jdbcCommitLimit();
        rows.add(String.format(Locale.ROOT, "| JDBC single-row UPDATE, %d threads (the limit) | %.0f commits/s | 1.00 | 1 |",
                LIMIT_THREADS, limit));
        if (MARIADB) {
            if (only.contains("drain")) {
                warmUpOurDrains();
                ourDrains().forEach((queue, run) -> rows.add(drainRow(OUR_DRAINS.get(queue), run, Double.NaN)));
            }
            print(rows);
            return;
        }
        Thread vacuuming = autovacuum ? null : startVacuuming();
        JobRowCommits jobRows = new JobRowCommits(JDBC_URL, JDBC_USER, LIMIT_THREADS, LIMIT_DURATION);
        double finishes = jobRows.finishes();
        rows.add(String.format(Locale.ROOT, "| JDBC, %d threads, a transaction per job: mark a job row DONE (BEGIN, UPDATE, COMMIT)"
                + " | %.0f commits/s | %.2f | 1 |", LIMIT_THREADS, finishes, finishes / limit));
        double inserts = jobRows.inserts();
        rows.add(String.format(Locale.ROOT, "| JDBC, %d threads, a transaction per job: insert a job row (BEGIN, INSERT, COMMIT)"
                + " | %.0f commits/s | %.2f | 1 |", LIMIT_THREADS, inserts, inserts / limit));
        Optional<Double> pgbench = Pgbench.simpleUpdateTps("127.0.0.1", JDBC_USER, DATABASE, LIMIT_THREADS,
                (int) LIMIT_DURATION.toSeconds());
        rows.add(pgbench.map(tps -> String.format(Locale.ROOT, "| pgbench simple-update, %d clients, %d s | %.0f tps"
                + " | %.2f | |", LIMIT_THREADS, LIMIT_DURATION.toSeconds(), tps, tps / limit))
                .orElse("| pgbench simple-update | pgbench is not installed | | |"));
        if (only.contains("drain")) {
            rows.addAll(drains());
        }
        if (only.contains("scaling")) {
            rows.addAll(scaling());
        }
        if (only.contains("enqueue")) {
            // Unmeasured, as the drains' warm-up: the server's transaction path and the put path are compiled
            // first. One round of 20,000 puts was not enough: on a fresh server the rate rose for about 80,000.
            for (int round = 0; round < ENQUEUE_WARM_UP_ROUNDS; round++) {
                call("insert-in-server?jobs=" + ENQUEUE_JOBS);
                call("enqueue?jobs=" + ENQUEUE_JOBS + "&perTransaction=1");
            }
        }
        for (int perTx : only.contains("enqueue") ? new int[] {1, 100} : new int[0]) {
            double jdbcInserts = 0;
            double serverInserts = 0;
            if (perTx == 1) {
                jdbcInserts = jobRows.inserts();
                Bracketed<String> inServer = bracketed("insert-in-server?jobs=" + ENQUEUE_JOBS);
                serverInserts = number(inServer.body(), "insertsPerSecond");
                rows.add(String.format(Locale.ROOT, "| the same insert in the server, without jobqueue: 4 threads, a"
                        + " container transaction and a pooled connection per row | %.0f commits/s, %.2f × the JDBC"
                        + " insert transaction | %s | 1 |", serverInserts, serverInserts / jdbcInserts,
                        inServer.ratio(serverInserts)));
            }
            Bracketed<String> result = bracketed("enqueue?jobs=" + ENQUEUE_JOBS + "&perTransaction=" + perTx);
            double perSecond = number(result.body(), "putsPerSecond");
            rows.add(String.format(Locale.ROOT, "| enqueue from 4 threads, %d put%s per transaction | %.0f puts/s%s | %s | |",
                    perTx, perTx == 1 ? "" : "s", perSecond, perTx == 1 ? String.format(Locale.ROOT,
                            ", %.2f × the JDBC insert transaction (%.0f/s), %.2f × the same insert in the server",
                            perSecond / jdbcInserts, jdbcInserts, perSecond / serverInserts) : "",
                    result.ratio(perSecond)));
        }
        if (only.contains("enqueue")) {
            rows.add(bulkEnqueueRow(jobRows));
        }
        for (int rate : only.contains("latency") ? new int[] {200, 1000} : new int[0]) {
            rows.add(latencyRow(call("latency?rate=" + rate + "&seconds=" + latencySeconds), rate, "same node"));
            rows.add(latencyRow(call("latency-remote?rate=" + rate + "&seconds=" + latencySeconds + "&remote="
                    + remoteUrl), rate, "put on node 1, consumer on node 2"));
        }
        for (String queue : only.contains("retry") ? List.of("bench-retry-one-node", "bench-retry") : List.<String>of()) {
            String result = call("retry-lateness?queue=" + queue + "&rate=" + RETRY_RATE + "&seconds=" + RETRY_SECONDS
                    + "&remote=" + remoteUrl);
            rows.add(String.format(Locale.ROOT, "| retry lateness, backoff end to retry start, %d jobs failing once, %s"
                    + " | p50 %.2f ms, p95 %.2f ms, p99 %.2f ms, max %.2f ms | | |", RETRY_RATE * RETRY_SECONDS,
                    queue.equals("bench-retry") ? String.format(Locale.ROOT, "both nodes consuming (%.0f retried on the"
                            + " other node)", number(result, "retriedOnTheOtherNode")) : "one node consuming",
                    number(result, "p50Millis"), number(result, "p95Millis"), number(result, "p99Millis"),
                    number(result, "maxMillis")));
        }
        if (only.contains("dashboard")) {
            // The dashboard reads a table that does not change, which autovacuum would leave alone.
            if (vacuuming != null) {
                vacuuming.interrupt();
                vacuuming.join();
            }
            rows.addAll(new DashboardLatency(JDBC_URL, JDBC_USER, URI.create(url).resolve("/jobqueue/admin/"),
                    URI.create(url + "/"), dashboardRows).measure());
        }
        print(rows);
    }

    /**
     * Bulk puts of {@value #BULK_PER_TRANSACTION} jobs per transaction, against a plain JDBC batch insert of the same
     * rows and 100 single puts per transaction, each measured here and now.
     */
    private String bulkEnqueueRow(JobRowCommits jobRows) throws Exception {
        double batchLimit = jobRows.batchInserts(BULK_PER_TRANSACTION);
        double hundredPuts = number(call("enqueue?jobs=" + ENQUEUE_JOBS + "&perTransaction=100"), "putsPerSecond");
        Bracketed<String> result = bracketed("enqueue-bulk?jobs=" + BULK_JOBS + "&perTransaction="
                + BULK_PER_TRANSACTION);
        double perSecond = number(result.body(), "putsPerSecond");
        return String.format(Locale.ROOT, "| enqueue from 4 threads, one putAll of %,d per transaction | %.0f puts/s,"
                + " %.2f × a JDBC batch insert of the same rows (%.0f rows/s), %.2f × 100 puts per transaction"
                + " (%.0f/s) | %s | |", BULK_PER_TRANSACTION, perSecond, perSecond / batchLimit, batchLimit,
                perSecond / hundredPuts, hundredPuts, result.ratio(perSecond));
    }

    private void print(List<String> rows) {
        System.out.println();
        System.out.println("jobqueue benchmark: " + Runtime.getRuntime().availableProcessors() + " cores, "
                + System.getProperty("java.version") + ", " + (MARIADB ? "MariaDB" : "PostgreSQL") + " at " + JDBC_URL
                + ", jobqueue on " + server + (MARIADB ? "" : autovacuum ? ", autovacuum on"
                        : ", autovacuum off: the runner vacuums the queue tables every " + VACUUM_EVERY.toSeconds() + " s"));
        System.out.println("| measurement | result | ratio to the limit | transactions per job |");
        System.out.println("|---|---|---|---|");
        rows.forEach(System.out::println);
        if (!skipped.isEmpty()) {
            System.out.println();
            System.out.println(skippedNote());
        }
        System.out.println();
    }

    private String skippedNote() {
        return "Not measured on " + server + ": " + String.join(", ", skipped) + " (its nodes are set up for "
                + String.join(", ", measurable) + ")";
    }

    /**
     * A throughput measurement's answer, with the database's commit limit measured right before and right after
     * it: the machine's speed changes from minute to minute, and a ratio to a limit taken at another time says
     * as much about that as about jobqueue.
     */
    private record Bracketed<T>(T body, double limitBefore, double limitAfter) {

        /** How far apart the two limits may be, as a share of the lower, before the row is marked unstable. */
        static final double STABLE_SPREAD = 0.20;

        /** The ratio to the mean of the two limits, both limits, and "unstable" where they differ too much. */
        String ratio(double perSecond) {
            boolean unstable = Math.abs(limitBefore - limitAfter) > STABLE_SPREAD * Math.min(limitBefore, limitAfter);
            return String.format(Locale.ROOT, "%.2f (limit %.0f before, %.0f after%s)",
                    perSecond / ((limitBefore + limitAfter) / 2), limitBefore, limitAfter,
                    unstable ? "; unstable: they differ by more than 20 %" : "");
        }
    }

    private Bracketed<String> bracketed(String path) throws Exception {
        return bracketed(() -> call(path));
    }

    private static <T> Bracketed<T> bracketed(Callable<T> measurement) throws Exception {
        double before = jdbcCommitLimit();
        T body = measurement.call();
        return new Bracketed<>(body, before, jdbcCommitLimit());
    }

    /**
     * The drain of {@link #jobs} no-op jobs by db-scheduler, jobqueue's transactional and non-transactional
     * consumers, db-scheduler again and JobRunr, in that order, with the ratio of each to db-scheduler's mean.
     * Each system first drains a few jobs unmeasured.
     */
    private List<String> drains() throws Exception {
        DatabaseCommits commits = new DatabaseCommits(JDBC_URL, JDBC_USER);
        PeerDrain dbScheduler = new DbSchedulerDrain(JDBC_URL, JDBC_USER, DRAIN_THREADS, DRAIN_CONNECTIONS);
        PeerDrain jobRunr = new JobRunrDrain(JDBC_URL, JDBC_USER, DRAIN_THREADS, DRAIN_CONNECTIONS);
        System.out.println("benchmark: warming up, " + WARM_UP_JOBS + " jobs each");
        dbScheduler.drain(WARM_UP_JOBS, commits);
        if (jobRunrDrain) {
            jobRunr.drain(WARM_UP_JOBS, commits);
        }
        warmUpOurDrains();
        List<Bracketed<PeerDrain.DrainResult>> dbSchedulerRuns = new ArrayList<>();
        dbSchedulerRuns.add(bracketed(() -> peerDrain(dbScheduler, commits)));
        Map<String, Bracketed<PeerDrain.DrainResult>> ours = ourDrains();
        dbSchedulerRuns.add(bracketed(() -> peerDrain(dbScheduler, commits)));
        Bracketed<PeerDrain.DrainResult> jobRunrRun = jobRunrDrain ? bracketed(() -> peerDrain(jobRunr, commits)) : null;
        double reference = dbSchedulerRuns.stream().mapToDouble(run -> run.body().jobsPerSecond()).average()
                .orElseThrow();
        List<String> rows = new ArrayList<>();
        call("finish-in-server?jobs=" + WARM_UP_JOBS);
        double jdbcFinishes = new JobRowCommits(JDBC_URL, JDBC_USER, LIMIT_THREADS, LIMIT_DURATION).finishes();
        Bracketed<String> inServer = bracketed("finish-in-server?jobs=" + jobs);
        double serverFinishes = number(inServer.body(), "finishesPerSecond");
        rows.add(String.format(Locale.ROOT, "| the default consumer's DONE in the server, without jobqueue: 4 threads, a"
                + " container transaction and a pooled connection per job | %.0f commits/s, %.2f × the JDBC DONE"
                + " transaction (%.0f/s), %.2f × db-scheduler | %s | 1 |", serverFinishes, serverFinishes / jdbcFinishes,
                jdbcFinishes, serverFinishes / reference, inServer.ratio(serverFinishes)));
        for (Bracketed<PeerDrain.DrainResult> run : dbSchedulerRuns) {
            rows.add(drainRow(dbScheduler.name() + (run == dbSchedulerRuns.get(0) ? ", before jobqueue" : ", after")
                    + " (" + dbScheduler.guarantee() + ")", run, reference));
        }
        ours.forEach((queue, run) -> rows.add(drainRow(OUR_DRAINS.get(queue), run, reference)));
        if (measurable.contains("jms")) {
            rows.add(jmsDrainRow(reference));
        }
        if (jobRunrRun != null) {
            rows.add(drainRow(jobRunr.name() + " (" + jobRunr.guarantee() + ")", jobRunrRun, reference));
        }
        return rows;
    }

    /**
     * The JMS row: a message-driven bean on the server's embedded messaging engine writes one row per message
     * through an XA datasource, the standard Jakarta EE way to exactly-once database effects per message. Measured
     * after jobqueue's drains, on the same node; the server answers "unavailable" where PostgreSQL cannot prepare
     * transactions.
     */
    private String jmsDrainRow(double reference) throws Exception {
        String system = "JMS on Liberty's embedded messaging engine, a message-driven bean writing one row per"
                + " message through an XA datasource, two-phase commit (exactly-once database effects)";
        // The JMS row's application is served beside the benchmark's, at /bench-jms.
        String drain = "../bench-jms/jms/drain?jobs=";
        Bracketed<String> run;
        try {
            call(drain + WARM_UP_JOBS);
            run = bracketed(drain + jobs);
        } catch (IllegalStateException failed) {
            // The other rows stand without this one.
            return String.format(Locale.ROOT, "| drain %,d messages: %s | not measured: %s | | |", jobs, system,
                    failed.getMessage());
        }
        Matcher unavailable = Pattern.compile("\"unavailable\":\"([^\"]*)\"").matcher(run.body());
        if (unavailable.find()) {
            System.out.println("benchmark: the JMS row is left out: " + unavailable.group(1));
            return String.format(Locale.ROOT, "| drain %,d messages: %s | not measured: %s | | |", jobs, system,
                    unavailable.group(1));
        }
        double perSecond = number(run.body(), "jobsPerSecond");
        return String.format(Locale.ROOT, "| drain %,d messages: %s | %.0f messages/s, %.2f × db-scheduler, %.0f"
                + " rows written | %s | %.2f |", jobs, system, perSecond, perSecond / reference,
                number(run.body(), "rows"), run.ratio(perSecond), number(run.body(), "transactionsPerJob"));
    }

    private void warmUpOurDrains() throws Exception {
        for (String queue : drainedQueues) {
            call("drain?queue=" + queue + "&jobs=" + WARM_UP_JOBS);
        }
    }

    /** The measured drain of each of jobqueue's queues, by queue. */
    private Map<String, Bracketed<PeerDrain.DrainResult>> ourDrains() throws Exception {
        Map<String, Bracketed<PeerDrain.DrainResult>> ours = new LinkedHashMap<>();
        for (String queue : drainedQueues) {
            ours.put(queue, bracketed(() -> {
                String body = call("drain?queue=" + queue + "&jobs=" + jobs);
                return new PeerDrain.DrainResult(number(body, "jobsPerSecond"), number(body, "transactionsPerJob"));
            }));
        }
        return ours;
    }

    /**
     * The drain of {@link #jobs} jobs by 1, 2 and 3 nodes, each with 4 consumer threads and 10 connections, for
     * transactional and non-transactional consumers: queue bench-scale-KIND-N is consumed by nodes 1 to N.
     */
    private List<String> scaling() throws Exception {
        List<String> rows = new ArrayList<>();
        for (String kind : List.of("tx", "nontx")) {
            call("drain?queue=bench-scale-" + kind + "-3&jobs=" + WARM_UP_JOBS + "&nodes=" + remoteUrl + "," + thirdUrl);
            double oneNode = 0;
            for (int nodes = 1; nodes <= 3; nodes++) {
                String others = String.join(",", List.of(remoteUrl, thirdUrl).subList(0, nodes - 1));
                String path = "drain?queue=bench-scale-" + kind + "-" + nodes + "&jobs=" + jobs + "&nodes=" + others;
                Bracketed<String> result = bracketed(path);
                double perSecond = number(result.body(), "jobsPerSecond");
                oneNode = nodes == 1 ? perSecond : oneNode;
                rows.add(String.format(Locale.ROOT, "| drain %,d no-op jobs on %d node%s, %s consumers | %.0f jobs/s,"
                        + " %.2f × one node | %s | %.2f |", jobs, nodes, nodes == 1 ? "" : "s",
                        kind.equals("tx") ? "transactional" : "non-transactional", perSecond, perSecond / oneNode,
                        result.ratio(perSecond), number(result.body(), "transactionsPerJob")));
            }
        }
        return rows;
    }

    private PeerDrain.DrainResult peerDrain(PeerDrain peer, DatabaseCommits commits) throws Exception {
        vacuumQueueTables();
        System.out.println("benchmark: " + peer.name() + ", " + jobs + " jobs ...");
        PeerDrain.DrainResult result = peer.drain(jobs, commits);
        System.out.println("benchmark: " + result);
        return result;
    }

    /** A drain's row; {@code reference} is db-scheduler's rate, NaN where it was not measured (MariaDB). */
    private String drainRow(String system, Bracketed<PeerDrain.DrainResult> run, double reference) {
        double perSecond = run.body().jobsPerSecond();
        double transactionsPerJob = run.body().transactionsPerJob();
        return String.format(Locale.ROOT, "| drain %,d no-op jobs: %s | %.0f jobs/s%s | %s | %s |", jobs, system,
                perSecond, Double.isNaN(reference) ? "" : String.format(Locale.ROOT, ", %.2f × db-scheduler",
                        perSecond / reference), run.ratio(perSecond),
                transactionsPerJob < 0 ? "" : String.format(Locale.ROOT, "%.2f", transactionsPerJob));
    }

    private static Map<String, String> orderedMap(String... keysAndValues) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    private String latencyRow(String result, int rate, String where) {
        Matcher slow = Pattern.compile("\"over20MillisBySecond\":\"([0-9 ]*)\"").matcher(result);
        System.out.println("latency " + rate + "/s, " + where + ": starts over 20 ms by second of the run: "
                + (slow.find() ? slow.group(1) : "?"));
        return String.format(Locale.ROOT,
                "| latency, commit to start, %d/s for %d s, %s | p50 %.2f ms, p95 %.2f ms, p99 %.2f ms, max %.2f ms | | |",
                rate, latencySeconds, where, number(result, "p50Millis"), number(result, "p95Millis"),
                number(result, "p99Millis"), number(result, "maxMillis"));
    }

    /** Commits per second of single-row UPDATEs, one row per thread, autocommit, as pgbench's simplest test. */
    private static double jdbcCommitLimit() throws Exception {
        try (Connection connection = DriverManager.getConnection(JDBC_URL, JDBC_USER, "");
                Statement ddl = connection.createStatement()) {
            ddl.execute("CREATE TABLE IF NOT EXISTS bench_commit_limit (id INTEGER PRIMARY KEY, n BIGINT NOT NULL)");
            ddl.execute("DELETE FROM bench_commit_limit");
            for (int i = 0; i < LIMIT_THREADS; i++) {
                ddl.execute("INSERT INTO bench_commit_limit VALUES (" + i + ", 0)");
            }
        }
        AtomicLong commits = new AtomicLong();
        long end = System.nanoTime() + LIMIT_DURATION.toNanos();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < LIMIT_THREADS; i++) {
            int row = i;
            Thread thread = new Thread(() -> {
                try (Connection connection = DriverManager.getConnection(JDBC_URL, JDBC_USER, "");
                        PreparedStatement update = connection.prepareStatement(
                                "UPDATE bench_commit_limit SET n = n + 1 WHERE id = ?")) {
                    update.setInt(1, row);
                    while (System.nanoTime() < end) {
                        update.executeUpdate();
                        commits.incrementAndGet();
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return commits.get() / (double) LIMIT_DURATION.toSeconds();
    }

    /** Whether PostgreSQL's autovacuum is on; MariaDB purges old row versions itself, as if it were. */
    private static boolean autovacuumOn() throws SQLException {
        if (MARIADB) {
            return true;
        }
        try (Connection connection = DriverManager.getConnection(JDBC_URL, JDBC_USER, "");
                Statement show = connection.createStatement();
                ResultSet setting = show.executeQuery("SHOW autovacuum")) {
            setting.next();
            return setting.getString(1).equals("on");
        }
    }

    /**
     * Stands in for autovacuum where PostgreSQL runs with it off (this machine's does): every few seconds, and before
     * each measurement, the job table is vacuumed and analysed, as autovacuum would after so many changes. A
     * queue table left unvacuumed fills with dead rows, and one left unanalysed is planned as if it were empty.
     */
    private Thread startVacuuming() {
        Thread vacuuming = new Thread(() -> {
            while (true) {
                try {
                    Thread.sleep(VACUUM_EVERY.toMillis());
                    vacuumQueueTables();
                } catch (InterruptedException e) {
                    return;
                } catch (Exception e) {
                    System.out.println("benchmark: cannot vacuum the job table: " + e);
                }
            }
        }, "vacuum");
        vacuuming.setDaemon(true);
        vacuuming.start();
        return vacuuming;
    }

    private void vacuumQueueTables() throws Exception {
        if (autovacuum) {
            return;
        }
        try (Connection connection = DriverManager.getConnection(JDBC_URL, JDBC_USER, "");
                Statement vacuum = connection.createStatement()) {
            for (String table : QUEUE_TABLES) {
                try (ResultSet exists = vacuum.executeQuery("SELECT to_regclass('" + table + "') IS NOT NULL")) {
                    exists.next();
                    if (!exists.getBoolean(1)) {
                        continue;
                    }
                }
                vacuum.execute("VACUUM ANALYZE " + table);
            }
        }
    }

    private String call(String path) throws Exception {
        vacuumQueueTables();
        System.out.println("benchmark: " + path + " ...");
        HttpRequest request = HttpRequest.newBuilder(URI.create(url + "/" + path).normalize())
                .POST(HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofMinutes(30)).build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(path + " answered " + response.statusCode() + ": " + response.body());
        }
        System.out.println("benchmark: " + response.body());
        return response.body();
    }

    private static double number(String json, String field) {
        Matcher matcher = Pattern.compile("\"" + field + "\":(-?[0-9.Ee+-]+)").matcher(json);
        if (!matcher.find()) {
            throw new IllegalStateException("no " + field + " in " + json);
        }
        return Double.parseDouble(matcher.group(1));
    }
}
