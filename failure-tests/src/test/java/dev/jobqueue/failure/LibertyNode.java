package dev.jobqueue.failure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A Liberty server of the cluster: a copy of the template server that Maven created ({@code -Pfailure}), with its
 * own HTTP port, node name and logs, started and stopped with {@code server start} and {@code server stop}.
 */
final class LibertyNode extends ServerNode {

    private final Path wlp;
    private final String serverName;
    private final TestDatabase db;

    private LibertyNode(String label, int port, Path wlp, TestDatabase db) {
        super(label, port);
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
        node.killLeftover();
        delete(dir);
        copyTree(template, dir, file -> file.startsWith(template.resolve("logs"))
                || file.startsWith(template.resolve("workarea")));
        node.createSchema(true);
        Files.writeString(dir.resolve("jvm.options"), node.jvmOptions());
        return node;
    }

    @Override
    void nodeName(String name) throws IOException {
        Files.writeString(serverDir().resolve("jvm.options"), jvmOptions() + "-Djobqueue.node-name=" + name + "\n");
    }

    private String jvmOptions() {
        return "-Dchaos.node=" + label + "\n-Xmx512m\n";
    }

    @Override
    void createSchema(boolean create) throws IOException {
        // The datasource requires both credentials: the password is explicitly empty, as for the test's own connections.
        Files.writeString(serverDir().resolve("bootstrap.properties"), "jobqueue.db=" + db.libertyName() + "\n"
                + "jobqueue.db.user=" + db.user + "\n" + "jobqueue.db.password=\n"
                + "jobqueue.db.name=" + TestDatabase.NAME + "\n" + db.nodeSettings()
                + "chaos.http.port=" + port + "\n" + "chaos.schema.create=" + create + "\n");
    }

    @Override
    void deploy(Path war) throws IOException {
        Path apps = serverDir().resolve("apps");
        Files.deleteIfExists(apps.resolve("chaos.war.xml"));
        Files.copy(war, apps.resolve("chaos.war"), StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    void systemProperty(String key, String value) throws IOException {
        Files.writeString(serverDir().resolve("jvm.options"), "-D" + key + "=" + value + "\n",
                StandardOpenOption.APPEND);
    }

    @Override
    void startServer() throws IOException, InterruptedException {
        Commands.run(List.of(wlp.resolve("bin/server").toString(), "start", serverName), Duration.ofSeconds(180));
    }

    @Override
    void stop() throws IOException, InterruptedException {
        Optional<ProcessHandle> process = runningProcess();
        try {
            Commands.run(List.of(wlp.resolve("bin/server").toString(), "stop", serverName), Duration.ofSeconds(120));
        } finally {
            process.ifPresent(jvm -> awaitGone(jvm, Duration.ofSeconds(60)));
        }
    }

    /** Kills the JVM of an earlier test class's node of the same name, if one outlived that class. */
    private void killLeftover() throws IOException {
        runningProcess().ifPresent(process -> {
            System.out.println("node " + label + ": killing a leftover server process, pid " + process.pid());
            process.destroyForcibly();
            process.onExit().join();
        });
    }

    /** Whether {@code process} runs this server, and is not another process that was given its old pid. */
    private boolean isThisServer(ProcessHandle process) {
        return process.info().commandLine().map(line -> line.contains(serverName)).orElse(false);
    }

    /** The server's JVM as Liberty recorded it at its last start, if it still runs. */
    private Optional<ProcessHandle> runningProcess() throws IOException {
        Path pidFile = pidFile();
        if (!Files.exists(pidFile)) {
            return Optional.empty();
        }
        return ProcessHandle.of(Long.parseLong(Files.readString(pidFile).trim())).filter(ProcessHandle::isAlive)
                .filter(this::isThisServer);
    }

    @Override
    long pid() throws IOException {
        return Long.parseLong(Files.readString(pidFile()).trim());
    }

    private Path pidFile() {
        return wlp.resolve("usr/servers/.pid/" + serverName + ".pid");
    }

    @Override
    Path messagesLog() {
        return logDir().resolve("messages.log");
    }

    @Override
    Path logDir() {
        return serverDir().resolve("logs");
    }

    @Override
    int healthPort() {
        return port;
    }

    private Path serverDir() {
        return wlp.resolve("usr/servers").resolve(serverName);
    }
}
