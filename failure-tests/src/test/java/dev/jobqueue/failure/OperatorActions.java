package dev.jobqueue.failure;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * An operator at work while the faults hit: every few seconds, through the admin API of a node that is up, a bulk
 * retry of FAILED jobs, a bulk delete of FAILED jobs, or a pause of a queue that is resumed a moment later. What it
 * sent is kept for {@link Invariants}: a job it asked to delete may be gone, and a job it asked to retry, or whose
 * ancestor it deleted, may end DONE or FAILED. The jobs of groups and ordering keys are left alone, so that their
 * own invariants keep their meaning.
 */
final class OperatorActions implements AutoCloseable {

    /**
     * HTTP/1.1: Java's client asks a plain-HTTP server to upgrade to HTTP/2 (h2c), and Liberty parks a thread of its
     * default executor, the one jobqueue's pollers share, on each such stream that a fault interrupts; after a
     * database restart under load, those threads starved node B's pollers for minutes in a random-fault run.
     */
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private static final List<String> PAUSABLE = List.of("rf-short", "rf-plain");

    /**
     * What the operator asked for.
     *
     * @param retried the jobs it sent in a bulk retry
     * @param deleted the jobs it sent in a bulk delete
     * @param actions when each bulk retry or delete was sent and answered, in milliseconds: {start, end}
     */
    record Asked(Set<String> retried, Set<String> deleted, List<long[]> actions) {
    }

    private final TestDatabase db;
    private final List<ServerNode> nodes;
    private final Predicate<ServerNode> available;
    private final Random random;
    private final Set<String> retried = Collections.synchronizedSet(new HashSet<>());
    private final Set<String> deleted = Collections.synchronizedSet(new HashSet<>());
    private final Map<String, Integer> actions = Collections.synchronizedMap(new TreeMap<>());
    private final List<long[]> bulkSpans = Collections.synchronizedList(new ArrayList<>());
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final Thread thread;

    OperatorActions(long seed, TestDatabase db, List<ServerNode> nodes, Predicate<ServerNode> available) {
        this.db = db;
        this.nodes = nodes;
        this.available = available;
        this.random = new Random(seed);
        this.thread = new Thread(this::act, "operator");
        thread.start();
    }

    private void act() {
        while (!stopping.get()) {
            sleep(3_000 + random.nextInt(5_000));
            try {
                switch (random.nextInt(3)) {
                    case 0 -> bulk("retry", 20, retried);
                    case 1 -> bulk("delete", 6, deleted);
                    default -> pause(PAUSABLE.get(random.nextInt(PAUSABLE.size())));
                }
            } catch (Exception e) {
                // a fault took the node or the database away: the operator tries again later
            }
        }
    }

    /** Sends some of the FAILED jobs outside groups and ordering keys in one bulk request, and keeps their ids. */
    private void bulk(String action, int most, Set<String> asked) throws Exception {
        List<String> ids = new ArrayList<>();
        try (Connection connection = db.connect();
             PreparedStatement select = connection.prepareStatement("SELECT id FROM jobqueue_job WHERE state = 'FAILED'"
                     + " AND queue LIKE 'rf-%' AND group_name IS NULL AND ordering_key IS NULL")) {
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getString(1));
                }
            }
        }
        Collections.shuffle(ids, random);
        List<String> chosen = ids.subList(0, Math.min(most, ids.size()));
        if (chosen.isEmpty()) {
            return;
        }
        asked.addAll(chosen);
        String body = chosen.stream().map(id -> "\"" + id + "\"").collect(Collectors.joining(",", "{\"ids\":[", "]}"));
        long start = System.currentTimeMillis();
        try {
            send("POST", "/jobs/" + action, body);
        } finally {
            bulkSpans.add(new long[] {start, System.currentTimeMillis()});
        }
        actions.merge(action, 1, Integer::sum);
    }

    /** Pauses the queue on every node, and resumes it one to three seconds later, trying until a node answers. */
    private void pause(String queue) throws Exception {
        if (send("POST", "/queues/" + queue + "/pause", null) != 204) {
            return;
        }
        actions.merge("pause", 1, Integer::sum);
        sleep(1_000 + random.nextInt(2_000));
        resume(queue);
    }

    private void resume(String queue) {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (send("POST", "/queues/" + queue + "/resume", null) == 204) {
                    return;
                }
            } catch (Exception e) {
                // the node or the database is away: try another node, or again
            }
            sleep(500);
        }
        throw new IllegalStateException("queue " + queue + " could not be resumed for two minutes");
    }

    private int send(String method, String path, String body) throws Exception {
        ServerNode node = nodes.get(random.nextInt(nodes.size()));
        if (!available.test(node)) {
            node = nodes.get(1 - nodes.indexOf(node));
        }
        String credentials = Base64.getEncoder().encodeToString("admin:admin-secret".getBytes(StandardCharsets.UTF_8));
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + node.port
                + "/jobqueue/admin" + path)).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Basic " + credentials).header("X-Requested-By", "RandomFaultsIT")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 500) {
            System.out.println("operator: " + method + " " + path + " answered " + response.statusCode() + ": "
                    + response.body());
        }
        return response.statusCode();
    }

    /** What was asked, once the operator has stopped. */
    Asked asked() {
        return new Asked(Set.copyOf(retried), Set.copyOf(deleted), List.copyOf(bulkSpans));
    }

    /** The actions sent, by kind: {@code delete=4, pause=6, retry=5}. */
    Map<String, Integer> actions() {
        return Map.copyOf(actions);
    }

    /** Stops acting, and leaves no queue paused. */
    @Override
    public void close() throws InterruptedException {
        stopping.set(true);
        thread.join(Duration.ofMinutes(3).toMillis());
        PAUSABLE.forEach(this::resume);
    }

    private static void sleep(int millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
