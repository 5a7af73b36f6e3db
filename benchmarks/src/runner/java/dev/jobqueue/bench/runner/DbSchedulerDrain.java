package dev.jobqueue.bench.runner;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;

/**
 * db-scheduler with its fastest setting for a backlog, lock-and-fetch with lower and upper limits 1.0 and 4.0
 * times the threads: one statement picks and locks a batch, and a finished one-time task's row is deleted.
 */
final class DbSchedulerDrain extends PeerDrain {

    static final String TABLE = "bench_scheduled_tasks";
    /** Batches of this many rows when the jobs are stored. */
    private static final int STORE_BATCH = 1_000;

    private final OneTimeTask<Void> task = Tasks.oneTime("bench-noop").execute((instance, context) -> RAN.incrementAndGet());
    private Scheduler scheduler;

    DbSchedulerDrain(String jdbcUrl, String user, int threads, int connections) {
        super(jdbcUrl, user, threads, connections);
    }

    @Override
    String name() {
        return "db-scheduler 16.12, lock-and-fetch 1.0/4.0";
    }

    @Override
    String guarantee() {
        return "at least once";
    }

    @Override
    void store(HikariDataSource dataSource, int jobs) throws Exception {
        createTable(dataSource);
        SchedulerClient client = SchedulerClient.Builder.create(dataSource, task).tableName(TABLE).build();
        Instant now = Instant.now();
        for (int first = 0; first < jobs; first += STORE_BATCH) {
            List<TaskInstance<?>> batch = IntStream.range(first, Math.min(jobs, first + STORE_BATCH))
                    .<TaskInstance<?>>mapToObj(i -> task.instance("job-" + i)).toList();
            client.scheduleBatch(batch, now);
        }
    }

    @Override
    void startWorkers(HikariDataSource dataSource, int threads) {
        scheduler = Scheduler.create(dataSource, task).tableName(TABLE).threads(threads)
                .pollUsingLockAndFetch(1.0, 4.0).pollingInterval(Duration.ofSeconds(1)).build();
        scheduler.start();
    }

    @Override
    void stopWorkers() {
        scheduler.stop();
    }

    @Override
    void clean(HikariDataSource dataSource) throws Exception {
        try (Connection connection = dataSource.getConnection(); Statement delete = connection.createStatement()) {
            delete.execute("DELETE FROM " + TABLE);
        }
    }

    /** The table db-scheduler's documentation gives for PostgreSQL, under the benchmark's own name. */
    private static void createTable(HikariDataSource dataSource) throws Exception {
        try (Connection connection = dataSource.getConnection(); Statement ddl = connection.createStatement()) {
            ddl.execute("CREATE TABLE IF NOT EXISTS " + TABLE + " (task_name TEXT NOT NULL, task_instance TEXT NOT NULL,"
                    + " task_data BYTEA, execution_time TIMESTAMP WITH TIME ZONE NOT NULL, picked BOOLEAN NOT NULL,"
                    + " picked_by TEXT, last_success TIMESTAMP WITH TIME ZONE, last_failure TIMESTAMP WITH TIME ZONE,"
                    + " consecutive_failures INT, last_heartbeat TIMESTAMP WITH TIME ZONE, version BIGINT NOT NULL,"
                    + " priority SMALLINT, PRIMARY KEY (task_name, task_instance))");
            ddl.execute("CREATE INDEX IF NOT EXISTS " + TABLE + "_execution_time ON " + TABLE + " (execution_time)");
            ddl.execute("CREATE INDEX IF NOT EXISTS " + TABLE + "_last_heartbeat ON " + TABLE + " (last_heartbeat)");
            ddl.execute("CREATE INDEX IF NOT EXISTS " + TABLE + "_priority_execution_time ON " + TABLE
                    + " (priority DESC, execution_time ASC)");
            ddl.execute("DELETE FROM " + TABLE);
        }
    }
}
