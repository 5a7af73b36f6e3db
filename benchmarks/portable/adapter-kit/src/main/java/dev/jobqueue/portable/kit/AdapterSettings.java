package dev.jobqueue.portable.kit;

import java.net.URI;
import java.nio.file.Path;
import java.util.Map;

/**
 * The harness's environment for one adapter process (CONTRIBUTING_ADAPTERS.md, "Env in"), with the contract's
 * defaults. A value that is not a number stops the adapter with a message naming the variable.
 *
 * @param system the system's name in the harness, as in adapter.json
 * @param database the database from {@code DATABASE_URL}
 * @param fixedRate {@code PRODUCER_MODE=fixed} (the default); otherwise depth-target
 * @param producerRate jobs a second offered in fixed mode, unless the rate control file says otherwise
 * @param rateControlFile {@code PRODUCER_RATE_CONTROL_FILE}, or null: a file holding the current rate
 * @param batchMax the most jobs one put call inserts
 * @param batchMillis the producer's tick when it has nothing to put
 * @param targetDepth the queue depth depth-target mode keeps
 * @param workerCount the consumer's concurrency
 * @param jobWorkMillis the synthetic work of each job
 * @param payloadBytes the rough size of each payload
 * @param sampleEverySeconds the telemetry's cadence
 * @param instanceId {@code BENCH_INSTANCE_ID}: only instance 0 reports the queue depth
 */
public record AdapterSettings(String system, Database database, boolean fixedRate, int producerRate,
                              Path rateControlFile, int batchMax, int batchMillis, int targetDepth, int workerCount,
                              int jobWorkMillis, int payloadBytes, int sampleEverySeconds, int instanceId) {

    /** Reads the settings from the process's environment. */
    public static AdapterSettings fromEnvironment(String system) {
        return from(system, System.getenv());
    }

    static AdapterSettings from(String system, Map<String, String> env) {
        String url = env.get("DATABASE_URL");
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException("DATABASE_URL is not set");
        }
        String rateFile = env.get("PRODUCER_RATE_CONTROL_FILE");
        return new AdapterSettings(system, Database.parse(url),
                !"depth-target".equals(env.getOrDefault("PRODUCER_MODE", "fixed")),
                integer(env, "PRODUCER_RATE", 800),
                rateFile == null || rateFile.isBlank() ? null : Path.of(rateFile),
                integer(env, "PRODUCER_BATCH_MAX", 128), integer(env, "PRODUCER_BATCH_MS", 10),
                integer(env, "TARGET_DEPTH", 1000), integer(env, "WORKER_COUNT", 32),
                integer(env, "JOB_WORK_MS", 1), integer(env, "JOB_PAYLOAD_BYTES", 256),
                integer(env, "SAMPLE_EVERY_S", 5), integer(env, "BENCH_INSTANCE_ID", 0));
    }

    private static int integer(Map<String, String> env, String name, int defaultValue) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            return defaultValue;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " is not a whole number: " + value, e);
        }
    }

    /**
     * The database of {@code DATABASE_URL} ({@code postgres://user:password@host:port/name}).
     *
     * @param host the host
     * @param port the port
     * @param name the database's name
     * @param user the user
     * @param password the password
     */
    public record Database(String host, int port, String name, String user, String password) {

        static Database parse(String url) {
            URI uri = URI.create(url);
            String[] credentials = uri.getUserInfo() == null ? new String[] {"", ""} : uri.getUserInfo().split(":", 2);
            return new Database(uri.getHost(), uri.getPort() < 0 ? 5432 : uri.getPort(), uri.getPath().substring(1),
                    credentials[0], credentials.length > 1 ? credentials[1] : "");
        }

        /** The PostgreSQL JDBC driver's URL for this database. */
        public String jdbcUrl() {
            return "jdbc:postgresql://" + host + ":" + port + "/" + name;
        }
    }
}
