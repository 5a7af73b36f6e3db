package dev.jobqueue.portable.jobrunr;

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
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.jobrunr.configuration.JobRunr;
import org.jobrunr.configuration.JobRunrConfiguration.JobRunrConfigurationResult;
import org.jobrunr.scheduling.JobScheduler;
import org.jobrunr.server.BackgroundJobServer;
import org.jobrunr.server.BackgroundJobServerConfiguration;
import org.jobrunr.storage.StorageProvider;
import org.jobrunr.storage.sql.postgres.PostgresStorageProvider;
import org.jobrunr.utils.mapper.jackson.JacksonJsonMapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * JobRunr 8.7 (open-source edition) as the harness's adapter. {@link PostgresStorageProvider} creates or migrates
 * its tables; the producer puts each batch with {@link JobScheduler#enqueue(java.util.stream.Stream,
 * org.jobrunr.jobs.lambdas.JobLambdaFromStream)}, the job a call of {@link BenchJobs#run} stored as JSON by Jackson;
 * a {@link BackgroundJobServer} of {@code WORKER_COUNT} workers polls every 5 s, the shortest interval JobRunr allows
 * for a SQL database. JobRunr's open-source server stops itself after storage errors; a watchdog starts it again.
 */
public final class JobRunrBench {

    static final String SYSTEM = "jobrunr";
    static final String VERSION = "jobrunr@8.7.0";
    static final Duration POLL_INTERVAL = Duration.ofSeconds(5);

    private static final Logger LOG = LoggerFactory.getLogger(JobRunrBench.class);
    /**
     * Beside one per worker (each saves its job's SUCCEEDED state, and one at a time fetches new work): JobRunr's
     * zookeeper threads (the server heartbeat and the job steward, then, as master, scheduled, orphaned and janitor
     * tasks), the producer and the depth poller.
     */
    private static final int EXTRA_CONNECTIONS = 7;
    private static final String QUEUE_DEPTH = "SELECT count(*) FROM jobrunr_jobs WHERE state = 'ENQUEUED'";

    private static volatile boolean stopping;
    /** Set once JobRunr is initialised, which needs the kit's telemetry first: the producer starts after it. */
    private static volatile JobScheduler scheduler;

    private JobRunrBench() {
    }

    public static void main(String[] args) throws InterruptedException {
        PrintStream jsonl = System.out;
        System.setOut(System.err); // stdout carries the JSONL only: anything else printed goes to stderr
        AdapterSettings settings = AdapterSettings.fromEnvironment(SYSTEM);
        HikariDataSource dataSource = pool(settings, settings.workerCount() + EXTRA_CONNECTIONS);
        StorageProvider storage =
                untilDone("create or migrate JobRunr's tables", () -> new PostgresStorageProvider(dataSource));

        AdapterProcess process = new AdapterProcess(settings, jsonl,
                jobs -> scheduler.enqueue(jobs.stream(),
                        job -> BenchJobs.run(job.seq(), job.enqueuedAtMicros(), job.padding())),
                () -> queueDepth(dataSource));
        BenchJobs.reportTo(process.telemetry(), settings.jobWorkMillis());
        JobRunrConfigurationResult jobRunr = JobRunr.configure()
                .useStorageProvider(storage)
                .useJsonMapper(new JacksonJsonMapper())
                .withJobFilter(new BenchJobs.Completions())
                .useBackgroundJobServer(BackgroundJobServerConfiguration.usingStandardBackgroundJobServerConfiguration()
                        .andWorkerCount(settings.workerCount())
                        .andPollInterval(POLL_INTERVAL)
                        .andInterruptJobsAwaitDurationOnStopBackgroundJobServer(Duration.ofSeconds(1)))
                .initialize();
        scheduler = jobRunr.getJobScheduler();
        BackgroundJobServer server = jobRunr.getBackgroundJobServer();
        Thread watchdog = new Thread(() -> keepRunning(server), "jobrunr-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();

        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.info("SIGTERM: stopping the background job server");
            stopping = true;
            Thread stop = new Thread(server::stop, "server-stop");
            stop.start();
            try {
                stop.join(2_500);
            } catch (InterruptedException ignored) {
                // exiting anyway
            }
            process.stop();
            Runtime.getRuntime().halt(0); // the contract's exit code; the JVM's own would be 143
        }, "shutdown"));
        process.start(List.of("public.jobrunr_jobs"), VERSION, schemaVersion(dataSource));
        new CountDownLatch(1).await();
    }

    /**
     * Starts the server again when it has been down for 3 s: JobRunr's open-source edition stops its server after an
     * error of its heartbeat or a run of storage errors (a database restart), and leaves the restart to the
     * application.
     */
    private static void keepRunning(BackgroundJobServer server) {
        int downSeconds = 0;
        while (!stopping) {
            try {
                Thread.sleep(1_000);
            } catch (InterruptedException e) {
                return;
            }
            downSeconds = server.isRunning() ? 0 : downSeconds + 1;
            if (downSeconds >= 3 && !stopping) {
                LOG.warn("the background job server is stopped: starting it again");
                try {
                    server.start();
                } catch (RuntimeException e) {
                    LOG.warn("could not start the background job server: {}", e.toString());
                }
                downSeconds = 0;
            }
        }
    }

    /** The last migration JobRunr applied. */
    private static String schemaVersion(HikariDataSource dataSource) {
        try (Connection connection = dataSource.getConnection(); Statement query = connection.createStatement();
             ResultSet rows = query.executeQuery("SELECT max(script) FROM jobrunr_migrations")) {
            rows.next();
            return rows.getString(1);
        } catch (Exception e) {
            LOG.warn("could not read the schema version: {}", e.toString());
            return "unknown";
        }
    }

    /** Jobs ENQUEUED: waiting for a worker (a worker's fetch moves them to PROCESSING). */
    private static long queueDepth(HikariDataSource dataSource) throws Exception {
        try (Connection connection = dataSource.getConnection(); Statement query = connection.createStatement();
             ResultSet rows = query.executeQuery(QUEUE_DEPTH)) {
            rows.next();
            return rows.getLong(1);
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
