package dev.jobqueue.bench.runner;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The drain measurement for a peer job system in the runner's own JVM: N no-op jobs are stored while nothing
 * consumes them, then the peer's workers start and the clock runs until the last job has run. The same N,
 * worker threads and pool size as jobqueue's drain, on the same database.
 */
abstract class PeerDrain {

    /** Completed jobs of the run in progress; the peers' no-op jobs count here. */
    static final AtomicLong RAN = new AtomicLong();

    private final String jdbcUrl;
    private final String user;
    private final int threads;
    private final int connections;

    PeerDrain(String jdbcUrl, String user, int threads, int connections) {
        this.jdbcUrl = jdbcUrl;
        this.user = user;
        this.threads = threads;
        this.connections = connections;
    }

    /** The peer's name and setting, as the table prints it. */
    abstract String name();

    /** What a finished job guarantees, as the table prints it. */
    abstract String guarantee();

    /** Stores {@code jobs} jobs, none of them running yet. */
    abstract void store(HikariDataSource dataSource, int jobs) throws Exception;

    /** Starts the workers, which run the stored jobs. */
    abstract void startWorkers(HikariDataSource dataSource, int threads) throws Exception;

    /** Stops the workers. */
    abstract void stopWorkers() throws Exception;

    /** Deletes whatever the peer left in its tables. */
    abstract void clean(HikariDataSource dataSource) throws Exception;

    /** Drains {@code jobs} jobs and answers jobs per second and transactions per job. */
    DrainResult drain(int jobs, DatabaseCommits commits) throws Exception {
        try (HikariDataSource dataSource = pool()) {
            store(dataSource, jobs);
            RAN.set(0);
            long commitsBefore = commits.settledCount();
            long start = System.nanoTime();
            double seconds;
            try {
                startWorkers(dataSource, threads);
                while (RAN.get() < jobs) {
                    Thread.sleep(2);
                }
                seconds = (System.nanoTime() - start) / 1e9;
            } finally {
                stopWorkers();
            }
            long transactions = commits.settledCount() - commitsBefore;
            clean(dataSource);
            return new DrainResult(jobs / seconds, (double) transactions / jobs);
        }
    }

    private HikariDataSource pool() {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setUsername(user);
        config.setMaximumPoolSize(connections);
        config.setPoolName(name());
        return new HikariDataSource(config);
    }

    /** Jobs per second, and committed transactions in the database per job. */
    record DrainResult(double jobsPerSecond, double transactionsPerJob) {
    }
}
