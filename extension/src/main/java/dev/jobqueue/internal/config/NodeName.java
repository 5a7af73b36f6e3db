package dev.jobqueue.internal.config;

import dev.jobqueue.internal.JndiNames;
import dev.jobqueue.internal.Messages;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * This node's name, recorded with every lease it takes ({@code jobqueue.node-name}). It must differ between
 * nodes that run at the same time and stay the same when a node restarts: at start-up a node takes back, within
 * seconds rather than when their leases expire, the jobs an earlier run of it held ({@code EarlierLeases}); jobs
 * whose leases a live process with the same name still renews are left to it, and the shared name is logged as
 * JQ090. The default, {@code <server name>@<host name>/<application name>}, is both on Liberty, on a host or in
 * a container, and on WildFly when each server of a host has its own {@code jboss.node.name}.
 */
@ApplicationScoped
public class NodeName {

    public static final String KEY = "jobqueue.node-name";
    /** The width of the {@code claimed_by} column. */
    public static final int MAX_LENGTH = 200;

    private String name;

    @PostConstruct
    void read() {
        name = configured(key -> ConfigProvider.getConfig().getOptionalValue(key, String.class))
                .orElseGet(NodeName::byDefault);
    }

    /**
     * The name set with {@value #KEY}, if any.
     *
     * @throws IllegalArgumentException with a JQ020 message, for a name that is empty, too long or holds a NUL
     */
    public static Optional<String> configured(Function<String, Optional<String>> lookup) {
        Optional<String> configured = lookup.apply(KEY).map(String::strip);
        if (configured.isPresent() && !isValid(configured.get())) {
            throw new IllegalArgumentException(Messages.badConfigValue(KEY, configured.get(),
                    "a node name is 1 to " + MAX_LENGTH + " characters, without NUL"));
        }
        return configured;
    }

    private static boolean isValid(String name) {
        return !name.isEmpty() && name.length() <= MAX_LENGTH && name.indexOf('\0') < 0;
    }

    public String value() {
        return name;
    }

    private static String byDefault() {
        String defaultName = serverName(System::getProperty) + "@" + host() + "/" + application();
        return defaultName.length() <= MAX_LENGTH ? defaultName : defaultName.substring(0, MAX_LENGTH);
    }

    /**
     * The server's name for itself, from its system properties: on Liberty its server's name, the last folder of
     * its output directory, the one property that holds it; on WildFly its node name, {@code jboss.node.name},
     * which the servers of a cluster must not share (WildFly's transaction manager needs it too, and it defaults
     * to the host's name); elsewhere {@code server}.
     */
    static String serverName(UnaryOperator<String> systemProperty) {
        String outputDir = systemProperty.apply("server.output.dir");
        if (outputDir != null) {
            Path folder = Path.of(outputDir).getFileName();
            if (folder != null) {
                return folder.toString();
            }
        }
        String wildFlyNode = systemProperty.apply("jboss.node.name");
        return wildFlyNode == null || wildFlyNode.isBlank() ? "server" : wildFlyNode.strip();
    }

    private static String host() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            String fromEnvironment = System.getenv("HOSTNAME");
            return fromEnvironment == null ? "unknown-host" : fromEnvironment;
        }
    }

    private static String application() {
        try {
            return (String) new InitialContext().lookup(JndiNames.APPLICATION_NAME);
        } catch (NamingException e) {
            return "app";
        }
    }
}
