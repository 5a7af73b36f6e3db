package dev.jobqueue.failure.app;

import dev.jobqueue.JobQueue;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

/** The application's writes: batches of work jobs, and orders saved together with their job. */
@ApplicationScoped
public class Enqueuer {

    static final int WORK_QUEUES = 4;

    @Inject
    JobQueue jobs;

    @Resource(lookup = "java:comp/DefaultDataSource")
    DataSource dataSource;

    /** Puts jobs {@code from} to {@code to - 1} in one transaction, spread over the four work queues. */
    @Transactional
    public void putWork(int from, int to, int millis) {
        for (int n = from; n < to; n++) {
            jobs.put("work-" + (n % WORK_QUEUES + 1), new Work(n, millis));
        }
    }

    /** Puts jobs {@code from} to {@code to - 1} on {@code queue} in one transaction. */
    @Transactional
    public void putOn(String queue, int from, int to, int millis) {
        for (int n = from; n < to; n++) {
            jobs.put(queue, new Work(n, millis));
        }
    }

    /** Saves order {@code n} and puts its job in one transaction: both are written, or neither. */
    @Transactional
    public void placeOrder(int n) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement insert = connection.prepareStatement("INSERT INTO failure_order (n) VALUES (?)")) {
            insert.setInt(1, n);
            insert.executeUpdate();
        }
        jobs.put("orders", new Work(n, 0));
    }
}
