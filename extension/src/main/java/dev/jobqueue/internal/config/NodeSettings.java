package dev.jobqueue.internal.config;

import dev.jobqueue.internal.Messages;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
    public static final String LISTEN_DATASOURCE = "jobqueue.notify.listen-datasource";
    /** The value of {@value #LISTEN_DATASOURCE} that turns listening off: jobs put on other nodes wait for a poll. */
    public static final String NO_LISTEN_DATASOURCE = "none";
    public static final String ADMIN_ENABLED = "jobqueue.admin.enabled";
    public static final String DASHBOARD_ENABLED = "jobqueue.dashboard.enabled";
    public static final String SHOW_PAYLOADS = "jobqueue.dashboard.show-payloads";
    public static final String UNDECLARED_SCHEDULE_GRACE = "jobqueue.undeclared-schedule-grace";
    public static final String BULK_CHUNK_SIZE = "jobqueue.bulk-chunk-size";
    static final int DEFAULT_BULK_CHUNK_SIZE = 1_000;
    static final int LARGEST_BULK_CHUNK_SIZE = 100_000;
    static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(10);
    static final Duration DEFAULT_UNDECLARED_SCHEDULE_GRACE = Duration.ofMinutes(10);
    /** The shortest grace: nodes declare their schedules every quarter of it. */
    static final Duration SHORTEST_UNDECLARED_SCHEDULE_GRACE = Duration.ofSeconds(1);

    /**
     * The values, as read from one source of configuration.
     *
     * @param shutdownGrace how long running jobs get to finish at shutdown
     * @param schemaCreate  whether to run the shipped DDL at start-up
     * @param notifyEnabled whether puts wake other nodes through PostgreSQL's NOTIFY
     * @param listenDatasource the JNDI name of the datasource to LISTEN through, {@value #NO_LISTEN_DATASOURCE}
     *                         to send NOTIFY but not listen, or empty for the application's datasource
     * @param adminEnabled  whether the admin REST API answers
     * @param dashboardEnabled whether the dashboard's pages are served
     * @param showPayloads  whether the admin API and the dashboard show job payloads
     * @param undeclaredScheduleGrace how long no running node may declare a {@code @Recurring} schedule before it
     *                                is turned off
     * @param bulkChunkSize how many rows each transaction of a bulk change (a retry or delete of many jobs, a
     *                      purge, retention) takes
     */
    public record Values(Duration shutdownGrace, boolean schemaCreate, boolean notifyEnabled,
            Optional<String> listenDatasource, boolean adminEnabled, boolean dashboardEnabled, boolean showPayloads,
            Duration undeclaredScheduleGrace, int bulkChunkSize) {
    }

    private Values values;

    @PostConstruct
    void read() {
        values = parse(key -> ConfigProvider.getConfig().getOptionalValue(key, String.class));
    }

    /**
     * Reads and checks the node settings, and checks {@value NodeName#KEY}, which {@link NodeName} reads.
     *
     * @throws IllegalArgumentException with one JQ020 message per line, one for each bad key
     */
    public static Values parse(Function<String, Optional<String>> lookup) {
        List<String> problems = new ArrayList<>();
        try {
            NodeName.configured(lookup);
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        Duration grace = duration(lookup, SHUTDOWN_GRACE, DEFAULT_SHUTDOWN_GRACE, Duration.ZERO, problems);
        Duration undeclaredScheduleGrace = duration(lookup, UNDECLARED_SCHEDULE_GRACE,
                DEFAULT_UNDECLARED_SCHEDULE_GRACE, SHORTEST_UNDECLARED_SCHEDULE_GRACE, problems);
        boolean schemaCreate = flag(lookup, SCHEMA_CREATE, false, problems);
        boolean notifyEnabled = flag(lookup, NOTIFY_ENABLED, true, problems);
        Optional<String> listenDatasource = lookup.apply(LISTEN_DATASOURCE).map(String::strip);
        if (listenDatasource.filter(String::isEmpty).isPresent()) {
            problems.add(Messages.badConfigValue(LISTEN_DATASOURCE, "", "expected a JNDI name, or "
                    + NO_LISTEN_DATASOURCE));
        }
        boolean adminEnabled = flag(lookup, ADMIN_ENABLED, true, problems);
        boolean dashboardEnabled = flag(lookup, DASHBOARD_ENABLED, true, problems);
        boolean showPayloads = flag(lookup, SHOW_PAYLOADS, true, problems);
        int bulkChunkSize = bulkChunkSize(lookup, problems);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("\n", problems));
        }
        return new Values(grace, schemaCreate, notifyEnabled, listenDatasource, adminEnabled, dashboardEnabled,
                showPayloads, undeclaredScheduleGrace, bulkChunkSize);
    }

    private static int bulkChunkSize(Function<String, Optional<String>> lookup, List<String> problems) {
        return lookup.apply(BULK_CHUNK_SIZE).map(String::strip).map(value -> {
            try {
                int size = Integer.parseInt(value);
                if (size >= 1 && size <= LARGEST_BULK_CHUNK_SIZE) {
                    return size;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            problems.add(Messages.badConfigValue(BULK_CHUNK_SIZE, value, "expected a whole number from 1 to "
                    + LARGEST_BULK_CHUNK_SIZE));
            return DEFAULT_BULK_CHUNK_SIZE;
        }).orElse(DEFAULT_BULK_CHUNK_SIZE);
    }

    private static Duration duration(Function<String, Optional<String>> lookup, String key, Duration byDefault,
            Duration shortest, List<String> problems) {
        return lookup.apply(key).map(value -> {
            try {
                Duration parsed = Durations.parse(value);
                if (parsed.compareTo(shortest) >= 0) {
                    return parsed;
                }
                problems.add(Messages.badConfigValue(key, value, "use at least " + shortest.toSeconds() + "s"));
            } catch (IllegalArgumentException e) {
                problems.add(Messages.badConfigValue(key, value, e.getMessage()));
            }
            return byDefault;
        }).orElse(byDefault);
    }

    private static boolean flag(Function<String, Optional<String>> lookup, String key, boolean byDefault,
            List<String> problems) {
        return lookup.apply(key).map(value -> {
            try {
                return Switches.parse(value);
            } catch (IllegalArgumentException e) {
                problems.add(Messages.badConfigValue(key, value, e.getMessage()));
                return byDefault;
            }
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

    /** The JNDI name of the datasource to LISTEN through, if not the application's: see {@link Values}. */
    public Optional<String> listenDatasource() {
        return values.listenDatasource();
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

    public Duration undeclaredScheduleGrace() {
        return values.undeclaredScheduleGrace();
    }

    public int bulkChunkSize() {
        return values.bulkChunkSize();
    }
}
