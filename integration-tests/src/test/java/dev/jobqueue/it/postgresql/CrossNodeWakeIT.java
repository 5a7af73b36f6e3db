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
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
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
        return Deployments.war("cross-node-producer", "cross-node-producer", LogCapture.class);
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
    @DisabledIfSystemProperty(named = "it.server", matches = "payara", disabledReason = "known to fail on Payara Micro"
            + " with PostgreSQL: the listener is not seen listening again within 20 s after its connection is cut;"
            + " not investigated yet (CONTRIBUTING.md, known issues)")
    @OperateOnDeployment("producer")
    void when_its_connection_is_cut_the_listener_says_so_once_then_listens_again_and_wakes_the_other_node()
            throws Exception {
        try (LogCapture log = new LogCapture(NotifyListener.class.getName())) {
            assertTrue(Await.until(() -> terminateListeners() > 0, WAIT), "a listening connection was there to cut");
            String again = "listening for jobs put on other nodes again";
            assertTrue(Await.until(() -> !log.recordsMentioning(again).isEmpty(), WAIT), "the listener listens again");
            assertEquals(1, log.recordsMentioning("cannot listen").size(), "the outage is logged once");

            Duration latency = commitToStart();
            assertTrue(latency.compareTo(WITHIN) < 0, "started " + latency.toMillis() + " ms after commit");
        }
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

    /** Cuts the connections jobqueue listens on, as a database restart or a network failure would. */
    private int terminateListeners() throws Exception {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement terminate = connection.prepareStatement("SELECT pg_terminate_backend(pid)"
                        + " FROM pg_stat_activity WHERE application_name = ? AND datname = current_database()")) {
            terminate.setString(1, ListenConnection.APPLICATION_NAME);
            int terminated = 0;
            try (ResultSet result = terminate.executeQuery()) {
                while (result.next()) {
                    terminated += result.getBoolean(1) ? 1 : 0;
                }
            }
            return terminated;
        }
    }

    /** The nearest-rank percentile, in milliseconds. */
    private static String millis(List<Duration> sorted, int percentile) {
        int rank = (int) Math.ceil(percentile / 100.0 * sorted.size());
        return String.format("%.1f ms", sorted.get(Math.max(rank, 1) - 1).toNanos() / 1e6);
    }
}
