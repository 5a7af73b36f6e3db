package dev.jobqueue.bench.runner;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.stream.IntStream;
import org.jobrunr.configuration.JobRunr;
import org.jobrunr.scheduling.JobScheduler;
import org.jobrunr.server.BackgroundJobServer;
import org.jobrunr.server.BackgroundJobServerConfiguration;
import org.jobrunr.storage.sql.postgres.PostgresStorageProvider;
import org.jobrunr.utils.mapper.jackson.JacksonJsonMapper;

/**
 * JobRunr's open-source edition with its defaults but the worker count and the shortest poll interval it
 * allows: a job is a static method call stored as JSON, and it keeps succeeded jobs, as jobqueue keeps DONE ones.
 */
final class JobRunrDrain extends PeerDrain {

    private static final Duration POLL_INTERVAL = Duration.ofSeconds(5);

    private BackgroundJobServer server;

    JobRunrDrain(String jdbcUrl, String user, int threads, int connections) {
        super(jdbcUrl, user, threads, connections);
    }

    @Override
    String name() {
        return "JobRunr 8.7, poll interval " + POLL_INTERVAL.toSeconds() + " s";
    }

    @Override
    String guarantee() {
        return "at least once";
    }

    @Override
    void store(HikariDataSource dataSource, int jobs) {
        JobScheduler scheduler = JobRunr.configure()
                .useStorageProvider(new PostgresStorageProvider(dataSource))
                .useJsonMapper(new JacksonJsonMapper())
                .initialize().getJobScheduler();
        scheduler.enqueue(IntStream.range(0, jobs).boxed(), sequence -> JobRunrJobs.noop(sequence));
    }

    @Override
    void startWorkers(HikariDataSource dataSource, int threads) {
        server = new BackgroundJobServer(JobRunr.getStorageProvider(), new JacksonJsonMapper(), null,
                BackgroundJobServerConfiguration.usingStandardBackgroundJobServerConfiguration()
                        .andWorkerCount(threads).andPollInterval(POLL_INTERVAL));
        server.start();
    }

    @Override
    void stopWorkers() {
        server.stop();
    }

    @Override
    void clean(HikariDataSource dataSource) throws Exception {
        JobRunr.destroy();
        try (Connection connection = dataSource.getConnection(); Statement delete = connection.createStatement()) {
            delete.execute("DELETE FROM jobrunr_jobs");
        }
    }
}
