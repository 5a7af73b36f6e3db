package dev.jobqueue.failure;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A WildFly server of the cluster: a copy of the template server's {@code standalone/} folder that Maven configured
 * ({@code -Pfailure,wildfly}), run from the one installation with {@code -Djboss.server.base.dir}. The node's
 * settings reach it as system properties on its command line, where the datasource's expressions and MicroProfile
 * Config read them; the chaos application is deployed as {@code ROOT.war}, at {@code /} as on Liberty.
 *
 * <p>WildFly moves all its sockets by one port offset. A node on HTTP port P takes the offset 2 × (P − 8080) and
 * sets its HTTP port back to P: the other sockets of nodes on neighbouring ports are then 2 apart, and WildFly's
 * pairs of neighbouring ports (4712 and 4713 for transactions) never meet. Its management interface, where
 * MicroProfile Health answers, is on 9990 plus that offset (12792 for 9481).
 */
final class WildFlyNode extends ServerNode {

    private static final String APPLICATION = "ROOT.war";
    private static final DateTimeFormatter ROLLED = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss.SSS");

    private final Path home;
    private final Path base;
    private final int portOffset;
    private final Map<String, String> properties = new TreeMap<>();
    private long pid;

    private WildFlyNode(String label, int port, Path home) {
        super(label, port);
        if (port <= 8080 || port > 16160) {
            throw new IllegalArgumentException("node " + label + ": a WildFly node's HTTP port lies between 8081 and"
                    + " 16160, where its port offset, 2 x (port - 8080), is positive and no larger than it: " + port);
        }
        this.home = home;
        this.base = home.resolve("failureNode" + label);
        this.portOffset = 2 * (port - 8080);
    }

    /** Copies the template's {@code standalone/} into a new node {@code label}, on {@code port}, using {@code db}. */
    static WildFlyNode create(String label, int port, TestDatabase db) throws IOException {
        Path home = Path.of(System.getProperty("wildfly.home")).toRealPath();
        WildFlyNode node = new WildFlyNode(label, port, home);
        node.killLeftover();
        delete(node.base);
        Path template = home.resolve("standalone");
        copyTree(template, node.base, file -> Stream.of("log", "data", "tmp")
                .anyMatch(folder -> file.startsWith(template.resolve(folder))));
        node.deploy(Path.of(System.getProperty("chaos.war")));
        node.properties.put("chaos.node", label);
        node.properties.put("jobqueue.node-name", "failureNode" + label);
        // The datasource of wildfly-config reads these; the template has no password, as for the test's connections.
        node.properties.put("jobqueue.db.user", db.user);
        node.properties.put("jobqueue.db.name", TestDatabase.NAME);
        node.properties.put("jobqueue.db.pool.max", "40");
        node.createSchema(true);
        return node;
    }

    @Override
    void nodeName(String name) {
        properties.put("jobqueue.node-name", name);
    }

    @Override
    void createSchema(boolean create) {
        properties.put("jobqueue.schema.create", Boolean.toString(create));
    }

    @Override
    void deploy(Path war) throws IOException {
        Files.copy(war, base.resolve("deployments").resolve(APPLICATION), StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    void systemProperty(String key, String value) {
        properties.put(key, value);
    }

    /**
     * Starts {@code standalone.sh} in the background, its output appended to {@code log/console.log}, and waits for
     * the pid file it writes for its JVM. The log of the last start is kept as {@code server_<time>.log}, and the
     * deployment scanner's markers of the last run are removed, so that the application is deployed afresh, even
     * after a failed deployment.
     */
    @Override
    void startServer() throws IOException, InterruptedException {
        Path log = messagesLog();
        Files.createDirectories(log.getParent());
        if (Files.exists(log)) {
            Files.move(log, log.resolveSibling("server_" + LocalDateTime.now().format(ROLLED) + ".log"));
        }
        try (Stream<Path> markers = Files.list(base.resolve("deployments"))) {
            for (Path marker : markers.filter(file -> file.getFileName().toString().startsWith(APPLICATION + "."))
                    .toList()) {
                Files.delete(marker);
            }
        }
        Files.deleteIfExists(pidFile());
        ProcessBuilder launch = new ProcessBuilder(command()).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logDir().resolve("console.log").toFile()));
        launch.environment().put("LAUNCH_JBOSS_IN_BACKGROUND", "1");
        launch.environment().put("JBOSS_PIDFILE", pidFile().toString());
        launch.environment().remove("JAVA_OPTS"); // standalone.conf's defaults: -Xmx512m, as the Liberty nodes have
        launch.start();
        Commands.awaitTrue(() -> runningProcess().isPresent(), Duration.ofSeconds(60), "node " + label + "'s JVM");
        pid = runningProcess().orElseThrow().pid();
    }

    private List<String> command() {
        List<String> command = new ArrayList<>(List.of(home.resolve("bin/standalone.sh").toString(),
                "--server-config=standalone.xml", "-Djboss.server.base.dir=" + base,
                "-Djboss.socket.binding.port-offset=" + portOffset, "-Djboss.http.port=" + (port - portOffset)));
        properties.forEach((key, value) -> command.add("-D" + key + "=" + value));
        return command;
    }

    /** Stops the server as a service manager does, with SIGTERM: WildFly shuts down in order, undeploying first. */
    @Override
    void stop() {
        ProcessHandle jvm = runningProcess()
                .orElseThrow(() -> new IllegalStateException("node " + label + " is not running"));
        jvm.destroy();
        awaitGone(jvm, Duration.ofSeconds(120));
    }

    /** Kills the JVM of an earlier test class's node of the same label, if one outlived that class. */
    private void killLeftover() {
        runningProcess().ifPresent(process -> {
            System.out.println("node " + label + ": killing a leftover server process, pid " + process.pid());
            process.destroyForcibly();
            process.onExit().join();
        });
    }

    /** The node's JVM, as {@code standalone.sh} recorded it, if it still runs: the script removes the file after it. */
    private Optional<ProcessHandle> runningProcess() {
        try {
            return ProcessHandle.of(Long.parseLong(Files.readString(pidFile()).trim())).filter(ProcessHandle::isAlive)
                    .filter(this::runsThisNode);
        } catch (IOException | NumberFormatException noneOrBeingWritten) {
            return Optional.empty();
        }
    }

    /**
     * Whether {@code process} runs this node, and is not another process given its old pid: its command line names
     * the node's folder. Read from /proc whole, since Java's {@code ProcessHandle.Info} leaves out a command line
     * longer than a page, as WildFly's, with its module options, can be.
     */
    private boolean runsThisNode(ProcessHandle process) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(process.pid()), "cmdline")),
                    StandardCharsets.UTF_8).contains(base + "/");
        } catch (IOException gone) {
            return false;
        }
    }

    private Path pidFile() {
        return base.resolve("wildfly.pid");
    }

    @Override
    long pid() {
        if (pid == 0) {
            throw new IllegalStateException("node " + label + " has not been started");
        }
        return pid;
    }

    @Override
    Path messagesLog() {
        return logDir().resolve("server.log");
    }

    @Override
    Path logDir() {
        return base.resolve("log");
    }

    @Override
    int healthPort() {
        return 9990 + portOffset;
    }
}
