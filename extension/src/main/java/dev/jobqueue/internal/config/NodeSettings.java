package dev.jobqueue.internal.config;

import dev.jobqueue.internal.Messages;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The settings that hold for the whole node rather than per queue. The extension checks them at deployment with
 * the queue options, so a bad value fails the deployment with JQ020; this bean then reads them once.
 */
@ApplicationScoped
public class NodeSettings {

    public static final String SHUTDOWN_GRACE = "jobqueue.shutdown-grace";
    public static final String SCHEMA_CREATE = "jobqueue.schema.create";
    public static final String NOTIFY_ENABLED = "jobqueue.notify.enabled";
    public static final String ADMIN_ENABLED = "jobqueue.admin.enabled";
    public static final String DASHBOARD_ENABLED = "jobqueue.dashboard.enabled";
    public static final String SHOW_PAYLOADS = "jobqueue.dashboard.show-payloads";
    static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(10);

    /** What MicroProfile Config's boolean converter reads as true; anything else it reads as false, silently. */
    private static final Set<String> TRUE = Set.of("true", "1", "yes", "y", "on");
    private static final Set<String> FALSE = Set.of("false", "0", "no", "n", "off");

    /**
     * The values, as read from one source of configuration.
     *
     * @param shutdownGrace how long running jobs get to finish at shutdown
     * @param schemaCreate  whether to run the shipped DDL at start-up
     * @param notifyEnabled whether puts wake other nodes through PostgreSQL's NOTIFY
     * @param adminEnabled  whether the admin REST API answers
     * @param dashboardEnabled whether the dashboard's pages are served
     * @param showPayloads  whether the admin API and the dashboard show job payloads
     */
    public record Values(Duration shutdownGrace, boolean schemaCreate, boolean notifyEnabled, boolean adminEnabled,
            boolean dashboardEnabled, boolean showPayloads) {
    }

    private Values values;

    @PostConstruct
    void read() {
        values = parse(key -> ConfigProvider.getConfig().getOptionalValue(key, String.class));
    }

    /**
     * Reads and checks the node settings.
     *
     * @throws IllegalArgumentException with one JQ020 message per line, one for each bad key
     */
    public static Values parse(Function<String, Optional<String>> lookup) {
        List<String> problems = new ArrayList<>();
        Duration grace = lookup.apply(SHUTDOWN_GRACE).map(value -> {
            try {
                return Durations.parse(value);
            } catch (IllegalArgumentException e) {
                problems.add(Messages.badConfigValue(SHUTDOWN_GRACE, value, e.getMessage()));
                return DEFAULT_SHUTDOWN_GRACE;
            }
        }).orElse(DEFAULT_SHUTDOWN_GRACE);
        boolean schemaCreate = flag(lookup, SCHEMA_CREATE, false, problems);
        boolean notifyEnabled = flag(lookup, NOTIFY_ENABLED, true, problems);
        boolean adminEnabled = flag(lookup, ADMIN_ENABLED, true, problems);
        boolean dashboardEnabled = flag(lookup, DASHBOARD_ENABLED, true, problems);
        boolean showPayloads = flag(lookup, SHOW_PAYLOADS, true, problems);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("\n", problems));
        }
        return new Values(grace, schemaCreate, notifyEnabled, adminEnabled, dashboardEnabled, showPayloads);
    }

    private static boolean flag(Function<String, Optional<String>> lookup, String key, boolean byDefault,
            List<String> problems) {
        return lookup.apply(key).map(value -> {
            String word = value.strip().toLowerCase(Locale.ROOT);
            if (TRUE.contains(word)) {
                return true;
            }
            if (!FALSE.contains(word)) {
                problems.add(Messages.badConfigValue(key, value, "expected true or false"));
            }
            return false;
        }).orElse(byDefault);
    }

    public Duration shutdownGrace() {
        return values.shutdownGrace();
    }

    public boolean schemaCreate() {
        return values.schemaCreate();
    }

    public boolean notifyEnabled() {
        return values.notifyEnabled();
    }

    public boolean adminEnabled() {
        return values.adminEnabled();
    }

    public boolean dashboardEnabled() {
        return values.dashboardEnabled();
    }

    public boolean showPayloads() {
        return values.showPayloads();
    }
}
