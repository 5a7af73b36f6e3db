package dev.jobqueue.bench.runner;

import dev.jobqueue.internal.store.JobCursor;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The dashboard's admin API on a large job table. Fills the job table with jobs of the queues dash-q0 to
 * dash-q4, which no consumer of the benchmark application takes, then times each request the dashboard makes, as
 * the viewer {@value #USER} of server.xml: listings' first pages and pages deep in the list, a search by dedupe
 * key, a count and the overview. Then the same for as many jobs put with {@code putAll} on one queue. The jobs
 * are deleted at the end.
 */
final class DashboardLatency {

    private static final String USER = "bench-viewer";
    private static final String PASSWORD = "bench-viewer-secret";
    private static final int WARM_UP = 5;
    private static final int TIMED = 50;
    private static final int PAGE = 50;
    private static final String OURS = "queue LIKE 'dash-q%'";
    /** The queue {@link #measureBulk} fills with putAll, which no consumer takes either. */
    private static final String BULK_QUEUE = "dash-bulk";
    /** Each job of a listing has one id field. */
    private static final Pattern JOB = Pattern.compile("\"id\":\"");
    private static final String PUT_ORDER = "seq DESC";
    private static final String DUE_ORDER = "run_at, seq";

    private final String jdbcUrl;
    private final String jdbcUser;
    private final URI admin;
    private final URI bench;
    private final int rows;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private final String authorization = "Basic " + Base64.getEncoder()
            .encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));

    /**
     * @param admin the admin API, ending in {@code /jobqueue/admin/}
     * @param bench the benchmark application's endpoints, ending in {@code /bench/}
     * @param rows  how many jobs to put in the table
     */
    DashboardLatency(String jdbcUrl, String jdbcUser, URI admin, URI bench, int rows) {
        this.jdbcUrl = jdbcUrl;
        this.jdbcUser = jdbcUser;
        this.admin = admin;
        this.bench = bench;
        this.rows = rows;
    }

    /**
     * The rows of the printed table, one per request: on the table filled as over a week, then on {@link #rows} jobs
     * put with {@code putAll} on one queue.
     */
    List<String> measure() throws Exception {
        List<String> results = new ArrayList<>(measureWeek());
        results.addAll(measureBulk());
        return results;
    }

    /**
     * The listings of one queue that {@code putAll} filled with {@link #rows} PENDING jobs, 1,000 per transaction,
     * through the benchmark application: put order and due order, first pages and pages deep in the list, a count and
     * the overview. The jobs are deleted at the end.
     */
    private List<String> measureBulk() throws Exception {
        sql("DELETE FROM jobqueue_job WHERE queue = '" + BULK_QUEUE + "'");
        try {
            System.out.printf(Locale.ROOT, "benchmark: dashboard: putting %,d jobs with putAll ...%n", rows);
            HttpRequest put = HttpRequest.newBuilder(bench.resolve("put-bulk?queue=" + BULK_QUEUE + "&jobs=" + rows))
                    .timeout(Duration.ofMinutes(30)).POST(HttpRequest.BodyPublishers.noBody()).build();
            HttpResponse<String> answer = http.send(put, HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() != 200) {
                throw new IllegalStateException("put-bulk answered " + answer.statusCode() + ": " + answer.body());
            }
            System.out.println("benchmark: dashboard: " + answer.body());
            sql("VACUUM ANALYZE jobqueue_job");
            long total = number("SELECT COUNT(*) FROM jobqueue_job");
            String ours = "queue = '" + BULK_QUEUE + "'";
            String queue = "queue=" + BULK_QUEUE;
            List<String> results = new ArrayList<>();
            results.add(time(total, "jobs?" + queue + " (first page, 50 jobs, newest first; all put with putAll)",
                    "jobs?" + queue + "&size=50", PAGE));
            results.add(time(total, "jobs?" + queue + " (page after the middle row, 50 jobs, newest first)",
                    "jobs?" + queue + "&size=50&after=" + middle(ours, PUT_ORDER), PAGE));
            results.add(time(total, "jobs?" + queue + "&state=PENDING&sort=due (first page, 50 jobs, due soonest first)",
                    "jobs?" + queue + "&state=PENDING&sort=due&size=50", PAGE));
            results.add(time(total, "jobs?" + queue + "&state=PENDING&sort=due (page after the middle row, 50 jobs)",
                    "jobs?" + queue + "&state=PENDING&sort=due&size=50&after=" + middle(ours, DUE_ORDER), PAGE));
            results.add(time(total, "jobs/count?" + queue + "&state=PENDING", "jobs/count?" + queue + "&state=PENDING",
                    -1));
            results.add(time(total, "overview (with the putAll queue)", "overview", -1));
            return results;
        } finally {
            sql("DELETE FROM jobqueue_job WHERE queue = '" + BULK_QUEUE + "'");
            sql("VACUUM ANALYZE jobqueue_job");
        }
    }

    /** The listings of the table filled as over a week ({@link #fill}). */
    private List<String> measureWeek() throws Exception {
        sql("DELETE FROM jobqueue_job WHERE " + OURS);
        try {
            fill();
            long total = number("SELECT COUNT(*) FROM jobqueue_job");
            String failed = "state = 'FAILED'";
            String pendingQ1 = "queue = 'dash-q1' AND state = 'PENDING'";
            long dedupe = rows / 2 / 3 * 3;
            List<String> results = new ArrayList<>();
            results.add(time(total, "jobs (first page, 50 jobs, newest first)", "jobs?size=50", PAGE));
            results.add(time(total, "jobs (page after the middle row, 50 jobs, newest first)",
                    "jobs?size=50&after=" + middle("1 = 1", PUT_ORDER), PAGE));
            results.add(time(total, "jobs?state=FAILED (first page, 50 jobs, newest first)",
                    "jobs?state=FAILED&size=50", PAGE));
            results.add(time(total, "jobs?state=FAILED (page after the middle FAILED row, 50 jobs, newest first)",
                    "jobs?state=FAILED&size=50&after=" + middle(failed, PUT_ORDER), PAGE));
            results.add(time(total, "jobs?queue=dash-q1&state=PENDING&sort=due (first page, 50 jobs, due soonest first)",
                    "jobs?queue=dash-q1&state=PENDING&sort=due&size=50", PAGE));
            results.add(time(total, "jobs?queue=dash-q1&state=PENDING&sort=due (page after the middle such row, 50 jobs,"
                    + " due soonest first)", "jobs?queue=dash-q1&state=PENDING&sort=due&size=50&after="
                    + middle(pendingQ1, DUE_ORDER), PAGE));
            results.add(time(total, "jobs?dedupeKey=key-" + dedupe + " (1 job)", "jobs?dedupeKey=key-" + dedupe, 1));
            results.add(time(total, "jobs/count?state=FAILED&queue=dash-q1", "jobs/count?state=FAILED&queue=dash-q1",
                    -1));
            results.add(time(total, "overview", "overview", -1));
            return results;
        } finally {
            sql("DELETE FROM jobqueue_job WHERE " + OURS);
            sql("VACUUM ANALYZE jobqueue_job");
        }
    }

    /**
     * Puts {@link #rows} jobs, in one statement, as over the past week: 90 % DONE, 5 % FAILED with a stack trace,
     * 4 % PENDING (those put in the last two days not due yet) and 1 % WAITING; a third with a dedupe key
     * {@code key-<n>}, a tenth with one of 1,000 ordering keys, a twentieth in a group of up to 1,000 jobs.
     */
    private void fill() throws SQLException {
        System.out.printf(Locale.ROOT, "benchmark: dashboard: putting %,d jobs ...%n", rows);
        sql("""
                WITH job AS (
                    SELECT n, now() - interval '7 days' * ((%1$d - n)::float8 / %1$d) AS created_at,
                        CASE WHEN n / 5 %% 100 < 90 THEN 'DONE' WHEN n / 5 %% 100 < 95 THEN 'FAILED'
                            WHEN n / 5 %% 100 < 99 THEN 'PENDING' ELSE 'WAITING' END AS state
                    FROM generate_series(1, %1$d) n)
                INSERT INTO jobqueue_job (id, queue, state, payload, attempts, priority, run_at, created_at,
                    started_at, finished_at, last_error, dedupe_key, ordering_key, group_name, claimed_by)
                SELECT md5('jobqueue-bench-dashboard-' || n)::uuid::text, 'dash-q' || n %% 5, state,
                    '{"order":' || n || ',"customer":"c-' || n %% 1000 || '"}',
                    CASE state WHEN 'DONE' THEN 1 WHEN 'FAILED' THEN 3 ELSE 0 END, 0,
                    CASE state WHEN 'PENDING' THEN created_at + interval '1 hour' * (n %% 48) ELSE created_at END,
                    created_at,
                    CASE WHEN state IN ('DONE', 'FAILED') THEN created_at END,
                    CASE WHEN state IN ('DONE', 'FAILED') THEN created_at + interval '1 millisecond' * (n %% 1000) END,
                    CASE WHEN state = 'FAILED' THEN 'java.lang.IllegalStateException: order ' || n || ' failed'
                        || repeat(E'\\n\\tat dev.example.Orders.ship(Orders.java:42)', 20) END,
                    CASE WHEN n %% 3 = 0 THEN 'key-' || n END,
                    CASE WHEN n %% 10 = 1 THEN 'customer-' || n %% 1000 END,
                    CASE WHEN n %% 20 = 2 THEN 'batch-' || n / 20000 END,
                    CASE WHEN state IN ('DONE', 'FAILED') THEN 'bench-node-' || n %% 2 END
                FROM job ORDER BY n""".formatted(rows));
        sql("VACUUM ANALYZE jobqueue_job");
    }

    /** The token of the page after the middle row of those that match {@code where}, in {@code order}. */
    private String middle(String where, String order) throws SQLException {
        try (Connection connection = DriverManager.getConnection(jdbcUrl, jdbcUser, "");
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT seq, run_at FROM jobqueue_job WHERE " + where
                        + " ORDER BY " + order + " OFFSET (SELECT COUNT(*) / 2 FROM jobqueue_job WHERE " + where
                        + ") LIMIT 1")) {
            row.next();
            return new JobCursor(row.getLong(1), row.getObject(2, OffsetDateTime.class).toInstant()).token();
        }
    }

    /**
     * Requests {@code path} {@value #WARM_UP} times, then {@value #TIMED} times timed, and answers the table's row.
     *
     * @param jobs how many jobs each answer must list, or -1 if it is not a listing
     */
    private String time(long total, String what, String path, int jobs) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(admin.resolve(path)).header("Authorization", authorization)
                .timeout(Duration.ofMinutes(1)).GET().build();
        long[] nanos = new long[TIMED];
        for (int i = -WARM_UP; i < TIMED; i++) {
            long start = System.nanoTime();
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            long elapsed = System.nanoTime() - start;
            if (response.statusCode() != 200 || jobs >= 0 && JOB.matcher(response.body()).results().count() != jobs) {
                throw new IllegalStateException("GET " + path + " answered " + response.statusCode()
                        + (jobs >= 0 ? ", not " + jobs + " jobs" : "") + ": " + response.body());
            }
            if (i >= 0) {
                nanos[i] = elapsed;
            }
        }
        Arrays.sort(nanos);
        return String.format(Locale.ROOT, "| dashboard API at %,d rows: GET %s | p50 %.1f ms, p95 %.1f ms, max %.1f ms"
                + " | | |", total, what, nanos[TIMED / 2] / 1e6, nanos[(int) (TIMED * 0.95)] / 1e6,
                nanos[TIMED - 1] / 1e6);
    }

    private long number(String query) throws SQLException {
        try (Connection connection = DriverManager.getConnection(jdbcUrl, jdbcUser, "");
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(query)) {
            row.next();
            return row.getLong(1);
        }
    }

    private void sql(String statement) throws SQLException {
        try (Connection connection = DriverManager.getConnection(jdbcUrl, jdbcUser, "");
                Statement sql = connection.createStatement()) {
            sql.execute(statement);
        }
    }
}
