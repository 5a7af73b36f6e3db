package dev.jobqueue.it.postgresql;

import dev.jobqueue.Consumer;
import dev.jobqueue.JobFailed;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * A consumer whose own database connection is cut before it returns, every time, as an idle-transaction timeout or
 * a NAT that drops idle connections would cut it: its job's completion then fails with 57P01. Counts its calls and
 * the JobFailed events.
 */
@ApplicationScoped
public class ConnectionCutter {

    static final String QUEUE = "cut-connection";

    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    private final List<JobFailed> failed = new CopyOnWriteArrayList<>();

    @Resource(lookup = "java:comp/DefaultDataSource")
    DataSource dataSource;

    @Inject
    Terminator terminator;

    @Consumer(queue = QUEUE, maxAttempts = 2)
    public void run(String payload) throws SQLException {
        calls.computeIfAbsent(payload, key -> new AtomicInteger()).incrementAndGet();
        int pid;
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT pg_backend_pid()")) {
            row.next();
            pid = row.getInt(1);
        }
        terminator.terminate(pid);
    }

    /** How many times the consumer was called with {@code payload}. */
    public int calls(String payload) {
        AtomicInteger count = calls.get(payload);
        return count == null ? 0 : count.get();
    }

    /** The JobFailed events of its queue. */
    public List<JobFailed> failedEvents() {
        return List.copyOf(failed);
    }

    void failed(@Observes JobFailed event) {
        if (event.queue().equals(QUEUE)) {
            failed.add(event);
        }
    }

    /** Ends another backend from a connection of its own, outside the consumer's transaction. */
    @ApplicationScoped
    public static class Terminator {

        @Resource(lookup = "java:comp/DefaultDataSource")
        DataSource dataSource;

        @Transactional(TxType.REQUIRES_NEW)
        public void terminate(int pid) throws SQLException {
            try (Connection connection = dataSource.getConnection();
                    Statement statement = connection.createStatement()) {
                statement.execute("SELECT pg_terminate_backend(" + pid + ")");
            }
        }
    }
}
