package dev.jobqueue.it.postgresql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.JobId;
import dev.jobqueue.JobQueue;
import dev.jobqueue.internal.store.AdminStore;
import dev.jobqueue.internal.store.JobRow;
import dev.jobqueue.internal.store.JobState;
import dev.jobqueue.internal.store.ListenConnection;
import dev.jobqueue.internal.wake.NotifyListener;
import dev.jobqueue.it.Await;
import dev.jobqueue.it.Deployments;
import dev.jobqueue.it.ServerLog;
import dev.jobqueue.it.lifecycle.LogCapture;
import jakarta.annotation.Resource;
import jakarta.inject.Inject;
import jakarta.transaction.UserTransaction;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A job put on one node starts on another at once, woken by PostgreSQL's NOTIFY. Two applications on one server
 * are two nodes, each with its own jobqueue runtime: this test's application puts jobs, and the other consumes
 * them but polls a minute apart, so only a notification can start its jobs within seconds. Tagged
 * {@code postgresql}: only the {@code -Ppostgresql} build runs it.
 */
@Tag("postgresql")
@ExtendWith(ArquillianExtension.class)
class CrossNodeWakeIT {

    private static final String QUEUE = "cross-node";
    private static final Duration WITHIN = Duration.ofSeconds(2);
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final int JOBS = 50;

    @Deployment(name = "consumer", order = 1, testable = false)
    static WebArchive consumer() {
        return Deployments.war("cross-node-consumer", "cross-node-consumer", CrossNodeConsumer.class);
    }

    @Deployment(name = "producer", order = 2)
    static WebArchive producer() {
        return Deployments.war("cross-node-producer", "cross-node-producer", LogCapture.class, ServerLog.class);
    }

    @Inject
    JobQueue jobs;

    @Inject
    AdminStore store;

    @Resource(lookup = "java:comp/UserTransaction")
    UserTransaction transaction;

    @Resource(lookup = "java:comp/DefaultDataSource")
    DataSource dataSource;

    @Test
    @OperateOnDeployment("producer")
    void a_job_put_on_one_node_starts_within_milliseconds_on_another_that_polls_a_minute_apart() throws Exception {
        List<Duration> latencies = new ArrayList<>();
        for (int i = 0; i < JOBS; i++) {
            latencies.add(commitToStart());
        }
        List<Duration> sorted = latencies.stream().sorted().toList();
        String summary = "commit to start on the other node, " + JOBS + " jobs one after another: p50 "
                + millis(sorted, 50) + ", p90 " + millis(sorted, 90) + ", p99 " + millis(sorted, 99) + ", max "
                + millis(sorted, 100);
        System.out.println("CrossNodeWakeIT: " + summary);
        assertTrue(sorted.get(JOBS - 1).compareTo(WITHIN) < 0, summary);
    }

    @Test
    @OperateOnDeployment("producer")
    void when_its_connection_is_cut_the_listener_says_so_once_then_listens_again_and_wakes_the_other_node()
            throws Exception {
        ServerLog.Mark mark = ServerLog.readable() ? ServerLog.mark() : null;
        try (LogCapture log = new LogCapture(NotifyListener.class.getName())) {
            Set<Integer> cut = new HashSet<>();
            assertTrue(Await.until(() -> cut.addAll(terminateListeners()), WAIT),
                    "a listening connection was there to cut");
            assertTrue(Await.until(() -> listeners().stream().anyMatch(pid -> !cut.contains(pid)), WAIT),
                    "the listener listens again on a new connection");
            assertTrue(Await.until(() -> mentions(log, mark, "listening for jobs put on other nodes again") > 0, WAIT),
                    "the listener says it listens again");
            assertEquals(1, mentions(log, mark, "cannot listen"), "the outage is logged once");

            Duration latency = commitToStart();
            assertTrue(latency.compareTo(WITHIN) < 0, "started " + latency.toMillis() + " ms after commit");
        }
    }

    /**
     * How many of the listeners' log records mention {@code text}: captured in this JVM on Liberty and WildFly, which
     * run both nodes in it, and read from every node's log file on Payara Micro, which runs each node in a process
     * of its own.
     */
    private static long mentions(LogCapture inThisJvm, ServerLog.Mark mark, String text) {
        if (mark == null) {
            return inThisJvm.recordsMentioning(text).size();
        }
        return ServerLog.records(ServerLog.since(mark)).stream().filter(record -> record.contains(text)).count();
    }

    /** Puts a job in a transaction of its own; returns how long after its commit began the other node claimed it. */
    private Duration commitToStart() throws Exception {
        transaction.begin();
        JobId id = jobs.put(QUEUE, "ping");
        Instant committing = Instant.now();
        transaction.commit();
        assertTrue(Await.until(() -> store.job(id.toString()).filter(row -> row.getState() == JobState.DONE)
                .isPresent(), WAIT), "job " + id + " ran on the other node");
        Optional<JobRow> row = store.job(id.toString());
        return Duration.between(committing, row.orElseThrow().getStartedAt());
    }

    /**
     * Cuts the connections jobqueue listens on, as a database restart or a network failure would.
     *
     * @return the server processes of those it cut
     */
    private List<Integer> terminateListeners() throws Exception {
        // In the select list, so that it is called for no connection but those the WHERE clause selects.
        return listenerQuery("SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ?"
                + " AND datname = current_database()");
    }

    /** The server processes of the connections jobqueue listens on now. */
    private List<Integer> listeners() throws Exception {
        return listenerQuery("SELECT pid, TRUE FROM pg_stat_activity WHERE application_name = ?"
                + " AND datname = current_database()");
    }

    /** The first column of the rows whose second is true. */
    private List<Integer> listenerQuery(String sql) throws Exception {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement query = connection.prepareStatement(sql)) {
            query.setString(1, ListenConnection.APPLICATION_NAME);
            List<Integer> pids = new ArrayList<>();
            try (ResultSet result = query.executeQuery()) {
                while (result.next()) {
                    if (result.getBoolean(2)) {
                        pids.add(result.getInt(1));
                    }
                }
            }
            return pids;
        }
    }

    /** The nearest-rank percentile, in milliseconds. */
    private static String millis(List<Duration> sorted, int percentile) {
        int rank = (int) Math.ceil(percentile / 100.0 * sorted.size());
        return String.format("%.1f ms", sorted.get(Math.max(rank, 1) - 1).toNanos() / 1e6);
    }
}
