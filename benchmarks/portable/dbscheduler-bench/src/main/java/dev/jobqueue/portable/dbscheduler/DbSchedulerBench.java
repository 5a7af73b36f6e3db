package dev.jobqueue.portable.dbscheduler;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.serializer.JacksonSerializer;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.jobqueue.portable.kit.AdapterProcess;
import dev.jobqueue.portable.kit.AdapterSettings;
import static dev.jobqueue.portable.kit.StartupRetry.untilDone;
import dev.jobqueue.portable.kit.BenchJob;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * db-scheduler 16.12 as the harness's adapter. One-time tasks in db-scheduler's default table {@code scheduled_tasks},
 * their data the {@link BenchJob} as JSON (db-scheduler's {@link JacksonSerializer}), put with
 * {@link Scheduler#scheduleBatch(List, Instant)} and run by a scheduler of {@code WORKER_COUNT} threads polling with
 * lock-and-fetch at 1.0/4.0 times the threads every second. Restarted, it takes up the rows it finds.
 */
public final class DbSchedulerBench {

    static final String SYSTEM = "dbscheduler";
    static final String VERSION = "db-scheduler@16.12.0";
    static final String TABLE = "scheduled_tasks";
    static final Duration POLLING_INTERVAL = Duration.ofSeconds(1);

    private static final Logger LOG = LoggerFactory.getLogger(DbSchedulerBench.class);
    /**
     * Beside one per executor thread (each deletes its row when done): the due-executor's lock-and-fetch, the
     * heartbeat and dead-execution housekeeping, the producer and the depth poller.
     */
    private static final int EXTRA_CONNECTIONS = 5;
    private static final String QUEUE_DEPTH =
            "SELECT count(*) FROM " + TABLE + " WHERE picked = false AND execution_time <= now()";

    private final HikariDataSource dataSource;
    private final String instancePrefix;
    private final AtomicLong instances = new AtomicLong();
    private volatile BenchTask task;
    private volatile Scheduler scheduler;

    private DbSchedulerBench(HikariDataSource dataSource, AdapterSettings settings) {
        this.dataSource = dataSource;
        // Ids unique over restarts (a new process's seq starts at 1 beside the old one's rows) and over retries.
        this.instancePrefix = Long.toString(System.currentTimeMillis(), 36) + "-" + settings.instanceId() + "-";
    }

    public static void main(String[] args) throws InterruptedException {
        PrintStream jsonl = System.out;
        System.setOut(System.err); // stdout carries the JSONL only: anything else printed goes to stderr
        AdapterSettings settings = AdapterSettings.fromEnvironment(SYSTEM);
        HikariDataSource dataSource = pool(settings, settings.workerCount() + EXTRA_CONNECTIONS);
        untilDone("install the schema", () -> {
            installSchema(dataSource);
            return null;
        });

        DbSchedulerBench bench = new DbSchedulerBench(dataSource, settings);
        AdapterProcess process = new AdapterProcess(settings, jsonl, bench::put, bench::queueDepth);
        bench.task = new BenchTask(process.telemetry(), settings.jobWorkMillis());
        bench.scheduler = Scheduler.create(dataSource, bench.task)
                .threads(settings.workerCount())
                .pollUsingLockAndFetch(1.0, 4.0)
                .pollingInterval(POLLING_INTERVAL)
                .serializer(new JacksonSerializer())
                .shutdownMaxWait(Duration.ofSeconds(1))
                .build();
        bench.scheduler.start();

        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.info("SIGTERM: stopping the scheduler");
            Thread stop = new Thread(bench.scheduler::stop, "scheduler-stop");
            stop.start();
            try {
                stop.join(2_500);
            } catch (InterruptedException ignored) {
                // exiting anyway
            }
            process.stop();
            Runtime.getRuntime().halt(0); // the contract's exit code; the JVM's own would be 143
        }, "shutdown"));
        process.start(List.of("public." + TABLE), VERSION, "16.12.0 postgresql_tables.sql");
        new CountDownLatch(1).await();
    }

    /** The producer's batch: one multi-row insert of db-scheduler's, all due now. */
    private void put(List<BenchJob> jobs) {
        List<TaskInstance<?>> instances = new ArrayList<>(jobs.size());
        for (BenchJob job : jobs) {
            instances.add(task.instance(instancePrefix + this.instances.incrementAndGet(), job));
        }
        scheduler.scheduleBatch(instances, Instant.now());
    }

    /** Due executions not picked: what waits for a worker. */
    private long queueDepth() throws Exception {
        try (Connection connection = dataSource.getConnection(); Statement query = connection.createStatement();
             ResultSet rows = query.executeQuery(QUEUE_DEPTH)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    /** The table and indexes of db-scheduler's documentation for PostgreSQL, kept with their rows if they exist. */
    private static void installSchema(HikariDataSource dataSource) throws Exception {
        try (Connection connection = dataSource.getConnection(); Statement ddl = connection.createStatement()) {
            ddl.execute("CREATE TABLE IF NOT EXISTS " + TABLE + " (task_name TEXT NOT NULL, task_instance TEXT NOT NULL,"
                    + " task_data BYTEA, execution_time TIMESTAMP WITH TIME ZONE NOT NULL, picked BOOLEAN NOT NULL,"
                    + " picked_by TEXT, last_success TIMESTAMP WITH TIME ZONE, last_failure TIMESTAMP WITH TIME ZONE,"
                    + " consecutive_failures INT, last_heartbeat TIMESTAMP WITH TIME ZONE, version BIGINT NOT NULL,"
                    + " priority SMALLINT, PRIMARY KEY (task_name, task_instance))");
            ddl.execute("CREATE INDEX IF NOT EXISTS execution_time_idx ON " + TABLE + " (execution_time)");
            ddl.execute("CREATE INDEX IF NOT EXISTS last_heartbeat_idx ON " + TABLE + " (last_heartbeat)");
            ddl.execute("CREATE INDEX IF NOT EXISTS priority_execution_time_idx ON " + TABLE
                    + " (priority DESC, execution_time ASC)");
        }
    }

    /**
     * A fixed-size pool that starts without PostgreSQL and replaces the connections it loses: a restart or a
     * terminated backend costs the statements under way, never the process.
     */
    private static HikariDataSource pool(AdapterSettings settings, int size) {
        HikariConfig config = new HikariConfig();
        config.setPoolName(SYSTEM);
        config.setJdbcUrl(settings.database().jdbcUrl());
        config.setUsername(settings.database().user());
        config.setPassword(settings.database().password());
        config.setMaximumPoolSize(size);
        config.setInitializationFailTimeout(-1);
        config.setConnectionTimeout(10_000);
        return new HikariDataSource(config);
    }
}
