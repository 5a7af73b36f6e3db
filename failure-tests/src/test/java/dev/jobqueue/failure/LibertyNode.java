package dev.jobqueue.failure;

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
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * One Liberty server of the cluster, run as its own operating-system process: a copy of the template server
 * that Maven created, with its own HTTP port and node name.
 */
final class LibertyNode {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    final String label;
    final int port;
    private final Path wlp;
    private final String serverName;
    private final TestDatabase db;

    private LibertyNode(String label, int port, Path wlp, TestDatabase db) {
        this.label = label;
        this.port = port;
        this.wlp = wlp;
        this.db = db;
        this.serverName = "failureNode" + label;
    }

    /** Copies the template server into a new server for node {@code label}, on {@code port}, using {@code db}. */
    static LibertyNode create(String label, int port, TestDatabase db) throws IOException {
        Path wlp = Path.of(System.getProperty("wlp.dir"));
        LibertyNode node = new LibertyNode(label, port, wlp, db);
        Path template = wlp.resolve("usr/servers").resolve(System.getProperty("node.template"));
        Path dir = node.serverDir();
        delete(dir);
        try (Stream<Path> files = Files.walk(template)) {
            for (Path source : files.toList()) {
                Path target = dir.resolve(template.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else if (!source.startsWith(template.resolve("logs")) && !source.startsWith(template.resolve("workarea"))) {
                    Files.copy(source, target);
                }
            }
        }
        node.createSchema(true);
        Files.writeString(dir.resolve("jvm.options"), "-Dchaos.node=" + label + "\n-Xmx512m\n");
        return node;
    }

    /** Whether the node runs jobqueue's schema script at start-up ({@code jobqueue.schema.create}). */
    void createSchema(boolean create) throws IOException {
        // The datasource requires both credentials: the password is explicitly empty, as for the test's own connections.
        Files.writeString(serverDir().resolve("bootstrap.properties"), "jobqueue.db=" + db.libertyName() + "\n"
                + "jobqueue.db.user=" + db.user + "\n" + "jobqueue.db.password=\n"
                + "chaos.http.port=" + port + "\n" + "chaos.schema.create=" + create + "\n");
    }

    /** Starts the server and waits until the application answers. */
    void start() throws IOException, InterruptedException {
        startServer();
        Commands.awaitTrue(this::ready, Duration.ofSeconds(180), "node " + label + " to serve its application");
    }

    /** Starts the server process only; the application may still be starting, or fail to. */
    void startServer() throws IOException, InterruptedException {
        Commands.run(List.of(wlp.resolve("bin/server").toString(), "start", serverName), Duration.ofSeconds(180));
    }

    void stop() throws IOException, InterruptedException {
        Commands.run(List.of(wlp.resolve("bin/server").toString(), "stop", serverName), Duration.ofSeconds(120));
    }

    /** Kills the server's JVM with SIGKILL: no shutdown hook, no release of its jobs. */
    void kill() throws IOException, InterruptedException {
        long pid = pid();
        ProcessHandle process = ProcessHandle.of(pid)
                .orElseThrow(() -> new IllegalStateException("node " + label + " (pid " + pid + ") is not running"));
        process.destroyForcibly();
        process.onExit().join();
    }

    /** Sends {@code signal} (STOP, CONT) to the server's JVM, as {@code kill -<signal>} does. */
    void signal(String signal) throws IOException, InterruptedException {
        Commands.run(List.of("kill", "-" + signal, Long.toString(pid())), Duration.ofSeconds(10));
    }

    /** The server's JVM, as Liberty recorded it at start. */
    long pid() throws IOException {
        return Long.parseLong(Files.readString(wlp.resolve("usr/servers/.pid/" + serverName + ".pid")).trim());
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
        return HTTP.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** POSTs and returns the response; throws if the node cannot be reached. */
    HttpResponse<String> post(String path, Duration timeout) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(uri(path)).timeout(timeout)
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

    /** The current messages.log: lines logged since the server last started. */
    Path messagesLog() {
        return serverDir().resolve("logs/messages.log");
    }

    /** The lines of {@link #messagesLog()} between two of its sizes. */
    List<String> logBetween(long from, long to) throws IOException {
        byte[] bytes = Files.readAllBytes(messagesLog());
        int end = (int) Math.min(to, bytes.length);
        int start = (int) Math.min(from, end);
        return new String(bytes, start, end - start, StandardCharsets.UTF_8).lines().toList();
    }

    /** Every line of this server's logs, the rolled-over ones of earlier starts included, that contains {@code text}. */
    List<String> linesMentioning(String text) throws IOException {
        try (Stream<Path> logs = Files.list(serverDir().resolve("logs"))) {
            List<String> lines = new java.util.ArrayList<>();
            for (Path log : logs.filter(file -> file.toString().endsWith(".log")).sorted().toList()) {
                Files.readAllLines(log, StandardCharsets.UTF_8).stream().filter(line -> line.contains(text))
                        .map(line -> log.getFileName() + ": " + line).forEach(lines::add);
            }
            return lines;
        }
    }

    long logSize() throws IOException {
        return Files.size(messagesLog());
    }

    private Path serverDir() {
        return wlp.resolve("usr/servers").resolve(serverName);
    }

    private URI uri(String path) {
        return URI.create("http://localhost:" + port + path);
    }

    private static void delete(Path dir) throws IOException {
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
