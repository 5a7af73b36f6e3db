package dev.jobqueue.it.payara;

import dev.jobqueue.it.Deployments;
import dev.jobqueue.it.ServerLog;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.arquillian.container.spi.client.container.DeployableContainer;
import org.jboss.arquillian.container.spi.client.container.DeploymentException;
import org.jboss.arquillian.container.spi.client.protocol.ProtocolDescription;
import org.jboss.arquillian.container.spi.client.protocol.metadata.ProtocolMetaData;
import org.jboss.arquillian.protocol.servlet5.v_5.ServletProtocol;
import org.jboss.shrinkwrap.api.Archive;
import org.jboss.shrinkwrap.api.Node;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;

/**
 * Starts one Payara Micro per deployment, and stops it at undeploy, as Payara's managed container does, but:
 * <ul>
 * <li>each starts in a copy of one {@link PayaraMicroRoot}, made at the first deployment, which has the runtime
 * unpacked, the post-boot commands applied and a class data sharing archive;</li>
 * <li>a deployment fails as soon as Payara Micro is ready without the application (a deployment error) or its
 * process ends, with the console as the message, as on Liberty;</li>
 * <li>each writes its log to a file of its own, numbered in start order, in the folder
 * {@code jobqueue.it.server.log}, which {@code ServerLog} reads as one log, in the test JVM and in each Payara
 * Micro, which gets that system property too;</li>
 * <li>a deployment made while another runs (CrossNodeWakeIT's two nodes, AdminIT's application with the admin API
 * disabled) gets the next free HTTP port, published as the system property
 * {@code jobqueue.it.http.port.<application>};</li>
 * <li>undeploy waits until the process has ended, so that the next start finds the port free;</li>
 * <li>a Payara Micro that reports itself ready without listening on its port is started again, once;</li>
 * <li>a deployment may carry post-boot commands for its own Payara Micro, as {@value #DEPLOYMENT_COMMANDS}
 * (IsolationIT's, which give the server another default datasource).</li>
 * </ul>
 */
public class PayaraMicroPerDeployment implements DeployableContainer<PayaraMicroConfiguration> {

    private static final AtomicInteger STARTS = new AtomicInteger();
    /** jobqueue's shutdown grace (10 s by default) and Payara's own stop, with room to spare. */
    private static final Duration STOP_GRACE = Duration.ofSeconds(25);
    private static final Duration LISTEN_WAIT = Duration.ofSeconds(30);
    private static final int START_ATTEMPTS = 2;
    /** Followed by the application's name: the HTTP port of its Payara Micro, for the tests' HTTP clients. */
    private static final String PORT_PROPERTY = "jobqueue.it.http.port.";
    /** Where in a deployment {@link #start} finds post-boot commands for its Payara Micro. */
    static final String DEPLOYMENT_COMMANDS = "/WEB-INF/payara-post-boot.asadmin";

    private final Map<String, Running> running = new ConcurrentHashMap<>();
    private PayaraMicroConfiguration configuration;
    private PayaraMicroRoot root;

    /** A Payara Micro that runs a deployment, in the directory it started in. */
    private record Running(PayaraMicroProcess process, Path directory, int port, Path log) {

        void kill() {
            try {
                process.kill();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public Class<PayaraMicroConfiguration> getConfigurationClass() {
        return PayaraMicroConfiguration.class;
    }

    @Override
    public void setup(PayaraMicroConfiguration configuration) {
        this.configuration = configuration;
        // A test run that is stopped (Ctrl-C) leaves no Payara Micro behind.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> running.values().forEach(Running::kill)));
    }

    @Override
    public ProtocolDescription getDefaultProtocol() {
        return new ProtocolDescription(ServletProtocol.PROTOCOL_NAME);
    }

    @Override
    public ProtocolMetaData deploy(Archive<?> archive) throws DeploymentException {
        String application = archive.getName().replaceFirst("\\.war$", "");
        int port = freePort();
        int start = STARTS.incrementAndGet();
        try {
            for (int attempt = 1; ; attempt++) {
                Path directory = Path.of(configuration.getRootDirectory())
                        .resolveSibling("instances").resolve(String.format("micro-%03d-%d", start, attempt));
                Path log = logs().resolve(
                        String.format("%03d-%s%s.log", start, archive.getName(), attempt == 1 ? "" : "-" + attempt));
                PayaraMicroProcess process = start(archive, directory, port, log);
                boolean ready = process.awaitReady(Duration.ofSeconds(configuration.getStartTimeoutSeconds()));
                InstanceConfiguration instance = InstanceConfiguration.in(process.output());
                if (!ready || !instance.deployed(application)) {
                    process.kill();
                    PayaraMicroRoot.delete(directory);
                    throw new DeploymentException("Payara Micro did not deploy " + archive.getName()
                            + (ready ? "" : ", and did not get ready") + ":\n" + process.output());
                }
                if (listens(port) || attempt == START_ATTEMPTS) {
                    running.put(archive.getName(), new Running(process, directory, port, log));
                    System.setProperty(PORT_PROPERTY + application, String.valueOf(port));
                    ProtocolMetaData metaData = new ProtocolMetaData();
                    metaData.addContext(instance.httpContext(port));
                    return metaData;
                }
                // Under load, Payara Micro sometimes reports itself ready with its HTTP listener not started ("Error
                // adding HttpProbes. NetworkListener http-listener's GrizzlyProxy is NULL"): start it again.
                stop(new Running(process, directory, port, log));
            }
        } catch (IOException e) {
            throw new DeploymentException("cannot start Payara Micro for " + archive.getName(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DeploymentException("interrupted while starting Payara Micro for " + archive.getName(), e);
        }
    }

    @Override
    public void undeploy(Archive<?> archive) throws DeploymentException {
        System.clearProperty(PORT_PROPERTY + archive.getName().replaceFirst("\\.war$", ""));
        Running stopped = running.remove(archive.getName());
        if (stopped == null) {
            return;
        }
        try {
            stop(stopped);
        } catch (IOException e) {
            throw new DeploymentException("cannot delete " + stopped.directory(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DeploymentException("interrupted while stopping Payara Micro for " + archive.getName(), e);
        }
    }

    private PayaraMicroProcess start(Archive<?> archive, Path directory, int port, Path log) throws IOException {
        root().copyTo(directory);
        Path war = directory.resolve(archive.getName());
        archive.as(ZipExporter.class).exportTo(war.toFile());
        List<String> command = new ArrayList<>(root().command());
        // In-container tests read the log of every Payara Micro, their own node's and the others', as the test
        // JVM does: a node's records are not in the JVM of another node's test.
        command.add(1, "-D" + ServerLog.PROPERTY + "=" + logs());
        command.addAll(configuration.microOptions());
        command.addAll(List.of("--port", String.valueOf(port), "--logtofile", log.toString(),
                "--showservletmappings", "--deploy", war.toString()));
        Node commands = archive.get(DEPLOYMENT_COMMANDS);
        if (commands != null) {
            Path file = directory.resolve("deployment-post-boot.asadmin");
            try (InputStream in = commands.getAsset().openStream()) {
                Files.copy(in, file);
            }
            command.addAll(List.of("--postbootcommandfile", file.toString()));
        }
        return PayaraMicroProcess.start(command, directory);
    }

    /**
     * Stops a Payara Micro. One that takes longer than {@link #STOP_GRACE} leaves its threads in the folder
     * {@code stop-threads} beside the root (not among the logs, which the tests read), named after its log.
     */
    private void stop(Running running) throws IOException, InterruptedException {
        Path dumps = Files.createDirectories(Path.of(configuration.getRootDirectory()).resolveSibling("stop-threads"));
        running.process().stop(STOP_GRACE, dumps.resolve(running.log().getFileName() + ".txt"));
        PayaraMicroRoot.delete(running.directory());
    }

    /** The root, made at the first deployment, with a small application of jobqueue's as its warm-up. */
    private synchronized PayaraMicroRoot root() {
        if (root == null) {
            root = PayaraMicroRoot.make(configuration, Deployments.war("payara-warmup"));
        }
        return root;
    }

    /** The folder of the Payara Micros' logs, {@code jobqueue.it.server.log}, which {@code ServerLog} reads. */
    private static Path logs() throws IOException {
        return Files.createDirectories(Path.of(System.getProperty("jobqueue.it.server.log")));
    }

    /** The first HTTP port from the configured one on that no deployment of this run uses. */
    private int freePort() {
        int port = configuration.getHttpPort();
        while (isUsed(port)) {
            port++;
        }
        return port;
    }

    private boolean isUsed(int port) {
        return running.values().stream().anyMatch(other -> other.port() == port);
    }

    /** Whether the port accepts connections within {@link #LISTEN_WAIT}. */
    private static boolean listens(int port) throws InterruptedException {
        long deadline = System.nanoTime() + LISTEN_WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("localhost", port), 1_000);
                return true;
            } catch (IOException refused) {
                Thread.sleep(500);
            }
        }
        return false;
    }
}
