package dev.jobqueue.internal.discovery;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Collections;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.logging.Logger;

/**
 * The application's own configuration files, {@value #OWN_FILE}: the keys they set, and whether a config source
 * is one of them. Environment variables, system properties and server variables are shared by every application.
 */
final class ApplicationConfigFiles {

    /** The extension's logger: its lines keep the name that logging settings know them by. */
    private static final Logger LOG = Logger.getLogger(JobQueueExtension.class.getName());
    private static final String OWN_FILE = "META-INF/microprofile-config.properties";

    private ApplicationConfigFiles() {
    }

    /**
     * The keys of the application's own files, the only ones checked for typos. Read from the files themselves,
     * every {@value #OWN_FILE} the application's class loader sees: servers name their config sources
     * differently (Liberty after the file, Payara "Properties" for each).
     */
    static Set<String> keys() {
        Set<String> own = new TreeSet<>();
        try {
            for (URL file : Collections.list(Thread.currentThread().getContextClassLoader().getResources(OWN_FILE))) {
                Properties properties = new Properties();
                try (InputStream in = file.openStream()) {
                    properties.load(in);
                }
                own.addAll(properties.stringPropertyNames());
            }
        } catch (IOException e) {
            LOG.warning("jobqueue: cannot read the application's " + OWN_FILE + " to check its keys: " + e);
        }
        return own;
    }

    /** Whether a config source is one of the application's files, by its name as Liberty gives it. */
    static boolean isOne(String configSource) {
        return configSource != null && configSource.contains("microprofile-config.properties");
    }
}
