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
import javax.naming.InitialContext;
import javax.naming.NamingException;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * This node's name, recorded with every lease it takes ({@code jobqueue.node-name}). It must differ between
 * nodes that run at the same time and stay the same when a node restarts: at start-up a node takes back, within
 * seconds rather than when their leases expire, the jobs an earlier run of it held ({@code EarlierLeases}); jobs
 * whose leases a live process with the same name still renews are left to it, and the shared name is logged as
 * JQ090. The default, {@code <server name>@<host name>/<application name>}, is both on Liberty, on a host or in
 * a container.
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
        String server = serverName();
        String defaultName = server + "@" + host() + "/" + application();
        return defaultName.length() <= MAX_LENGTH ? defaultName : defaultName.substring(0, MAX_LENGTH);
    }

    /** Liberty's server name: the last folder of its output directory, the one system property that holds it. */
    private static String serverName() {
        String outputDir = System.getProperty("server.output.dir");
        if (outputDir == null) {
            return "server";
        }
        Path folder = Path.of(outputDir).getFileName();
        return folder == null ? "server" : folder.toString();
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
