package dev.jobqueue.failure;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * One application server of the cluster, run as its own operating-system process with its own HTTP port, node name
 * and log: a Liberty server ({@link LibertyNode}) or, with {@code -Dfailure.server=wildfly}, a WildFly server
 * ({@link WildFlyNode}). The scenarios put work through its HTTP endpoints, read its log, and stop, kill and signal
 * its JVM; what differs between the servers is how a node is configured, started and stopped, and where it logs.
 */
abstract class ServerNode {

    /** The server every node runs: {@code liberty}, or {@code wildfly} ({@code -Dfailure.server}). */
    static final String SERVER = System.getProperty("failure.server", "liberty");

    /**
     * HTTP/1.1: Java's client asks a plain-HTTP server to upgrade to HTTP/2 (h2c), and Liberty parks a thread of its
     * default executor, the one jobqueue's pollers share, on each such stream that a fault interrupts; after a
     * database restart under load, those threads starved node B's pollers for minutes in a random-fault run.
     */
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    final String label;
    final int port;

    ServerNode(String label, int port) {
        this.label = label;
        this.port = port;
    }

    /**
     * A new node {@code label} of {@link #SERVER}, on {@code port} plus {@code -Dfailure.port.offset} (for a second
     * run beside another on this machine), using {@code db}; a node left from an earlier test class under this label
     * is killed and replaced.
     */
    static ServerNode create(String label, int port, TestDatabase db) throws IOException {
        assumeConfigured(db);
        int shifted = port + Integer.getInteger("failure.port.offset", 0);
        return switch (SERVER) {
            case "liberty" -> LibertyNode.create(label, shifted, db);
            case "wildfly" -> WildFlyNode.create(label, shifted, db);
            default -> throw new IllegalArgumentException("-Dfailure.server=" + SERVER + ": liberty or wildfly");
        };
    }

    /**
     * Skips the test class where {@link #SERVER} has no configuration for {@code db}: wildfly-config's CLI scripts
     * hold a datasource for PostgreSQL and for MariaDB, but none for PgBouncer or a multi-host PostgreSQL, which only
     * Liberty's {@code datasource-postgresql-pgbouncer.xml} and {@code datasource-postgresql-ha.xml} set up.
     */
    static void assumeConfigured(TestDatabase db) {
        if (SERVER.equals("wildfly")) {
            assumeTrue(db.libertyName().equals("postgresql") || db == TestDatabase.MARIADB, "WildFly: jobqueue's"
                    + " wildfly-config has no datasource for " + db.libertyName() + " (only Liberty's datasource-"
                    + db.libertyName() + ".xml sets it up), so this class runs on Liberty only");
        }
    }

    /** Where a SUMMARY line ran: {@code db=postgresql server=wildfly}. */
    static String where(TestDatabase db) {
        return "db=" + db.libertyName() + " server=" + SERVER;
    }

    /**
     * Gives the node this {@code jobqueue.node-name}, from its next start, as a copied configuration would; by
     * default each node's name differs.
     */
    abstract void nodeName(String name) throws IOException;

    /**
     * Whether the node runs jobqueue's schema script at start-up ({@code jobqueue.schema.create}) from its next
     * start.
     */
    abstract void createSchema(boolean create) throws IOException;

    /** Deploys {@code war} as the node's application, in place of the one Maven built; the server must be stopped. */
    abstract void deploy(Path war) throws IOException;

    /**
     * Sets a system property of the server's JVM from its next start: MicroProfile Config reads it ahead of the
     * application's file.
     */
    abstract void systemProperty(String key, String value) throws IOException;

    /** Starts the server process only; the application may still be starting, or fail to. */
    abstract void startServer() throws IOException, InterruptedException;

    /**
     * Stops the server, and makes sure its JVM is gone: a server that outlasts its stop would hold the node's port,
     * and the next node created with this label could never serve its application. Throws
     * {@link IllegalStateException} if it is not running.
     */
    abstract void stop() throws IOException, InterruptedException;

    /** The server's JVM as recorded at its last start; it may have died since. */
    abstract long pid() throws IOException;

    /** The current log: the lines logged since the server last started, each record's first line starting with [. */
    abstract Path messagesLog();

    /** The folder of the node's logs: the current one, those of its earlier starts, and its console output. */
    abstract Path logDir();

    /** The port where the node answers {@code /health/live} and {@code /health/ready}. */
    abstract int healthPort();

    /** Starts the server and waits until the application answers; on a timeout the error quotes the server's logs. */
    void start() throws IOException, InterruptedException {
        startServer();
        try {
            Commands.awaitTrue(this::ready, Duration.ofSeconds(180), "node " + label + " to serve its application");
        } catch (AssertionError notServing) {
            throw new AssertionError(notServing.getMessage() + "; the end of its logs:\n" + logTails(40), notServing);
        }
    }

    /** Kills the server's JVM with SIGKILL: no shutdown hook, no release of its jobs. */
    void kill() throws IOException, InterruptedException {
        long pid = pid();
        ProcessHandle process = ProcessHandle.of(pid)
                .orElseThrow(() -> new IllegalStateException("node " + label + " (pid " + pid + ") is not running"));
        process.destroyForcibly();
        process.onExit().join();
    }

    /** Sends {@code signal} (STOP, CONT, QUIT) to the server's JVM, as {@code kill -<signal>} does. */
    void signal(String signal) throws IOException, InterruptedException {
        Commands.run(List.of("kill", "-" + signal, Long.toString(pid())), Duration.ofSeconds(10));
    }

    boolean ready() {
        try {
            HttpResponse<String> response = get("/chaos/node");
            return response.statusCode() == 200 && response.body().equals(label);
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return send(URI.create("http://localhost:" + port + path));
    }

    /** Asks MicroProfile Health: {@code check} is {@code live} or {@code ready}. */
    HttpResponse<String> health(String check) throws IOException, InterruptedException {
        return send(URI.create("http://localhost:" + healthPort() + "/health/" + check));
    }

    private static HttpResponse<String> send(URI uri) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** POSTs and returns the response; throws if the node cannot be reached. */
    HttpResponse<String> post(String path, Duration timeout) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).timeout(timeout)
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** POSTs and fails unless the node answers 200. */
    void postOk(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = post(path, Duration.ofMinutes(5));
        if (response.statusCode() != 200) {
            throw new AssertionError("node " + label + ": POST " + path + " answered " + response.statusCode()
                    + ": " + response.body());
        }
    }

    long logSize() throws IOException {
        return Files.size(messagesLog());
    }

    /** The lines of {@link #messagesLog()} between two of its sizes. */
    List<String> logBetween(long from, long to) throws IOException {
        byte[] bytes = Files.readAllBytes(messagesLog());
        int end = (int) Math.min(to, bytes.length);
        int start = (int) Math.min(from, end);
        return new String(bytes, start, end - start, StandardCharsets.UTF_8).lines().toList();
    }

    /** Every line of this server's logs, those of its earlier starts included, that contains {@code text}. */
    List<String> linesMentioning(String text) throws IOException {
        try (Stream<Path> logs = Files.list(logDir())) {
            List<String> lines = new ArrayList<>();
            for (Path log : logs.filter(file -> file.toString().endsWith(".log")).sorted().toList()) {
                Files.readAllLines(log, StandardCharsets.UTF_8).stream().filter(line -> line.contains(text))
                        .map(line -> log.getFileName() + ": " + line).forEach(lines::add);
            }
            return lines;
        }
    }

    /** The last {@code lines} lines of the node's console output and of its current log. */
    private String logTails(int lines) throws IOException {
        StringBuilder tails = new StringBuilder();
        for (Path log : List.of(logDir().resolve("console.log"), messagesLog())) {
            if (Files.exists(log)) {
                List<String> all = new String(Files.readAllBytes(log), StandardCharsets.UTF_8).lines().toList();
                tails.append("--- ").append(log.getFileName()).append('\n');
                all.subList(Math.max(0, all.size() - lines), all.size())
                        .forEach(line -> tails.append(line).append('\n'));
            }
        }
        return tails.toString();
    }

    /** Waits for {@code process} to end, for at most {@code timeout}; then kills it. */
    static void awaitGone(ProcessHandle process, Duration timeout) {
        try {
            process.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException stillRunning) {
            process.destroyForcibly();
            process.onExit().join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Copies the folder {@code from} to {@code to}: every folder, and the files {@code skip} does not name. */
    static void copyTree(Path from, Path to, Predicate<Path> skip) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path source : files.toList()) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else if (!skip.test(source)) {
                    Files.copy(source, target);
                }
            }
        }
    }

    static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.delete(path);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
