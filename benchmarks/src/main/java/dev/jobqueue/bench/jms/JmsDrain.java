package dev.jobqueue.bench.jms;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import jakarta.jms.Queue;
import jakarta.transaction.UserTransaction;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.management.JMException;
import javax.management.ObjectName;
import javax.sql.DataSource;

/**
 * The drain of the JMS row (Liberty only): sends {@code jobs} persistent messages to a queue of the embedded
 * messaging engine while the message-driven bean {@link RowPerMessage} is paused, then resumes it and times until
 * it has handled them all, as the jobqueue drains put their jobs on a paused queue first. Answers
 * {@code unavailable} with the reason where PostgreSQL cannot take part in two-phase commit.
 */
@Path("jms")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class JmsDrain {

    static final String QUEUE_JNDI = "jms/benchMdbQueue";
    static final String XA_DATASOURCE_JNDI = "jdbc/benchXa";
    static final String TABLE = "bench_mdb_row";

    /** The message endpoint's J2EE name (application#module#bean), as Liberty's pause and resume name it. */
    private static final String ENDPOINT = "bench#bench.war#RowPerMessage";
    private static final String ENDPOINT_CONTROL = "WebSphere:feature=kernel,name=ServerEndpointControl";
    private static final int SENDS_PER_TRANSACTION = 1_000;
    /** As the jobqueue drains wait: pg_stat_database is flushed by idle backends within 10 s. */
    private static final long STATS_SETTLE_MILLIS = 11_000;

    @Resource(lookup = "jms/benchConnectionFactory")
    ConnectionFactory connectionFactory;

    @Resource(lookup = QUEUE_JNDI)
    Queue queue;

    @Resource(lookup = "java:comp/DefaultDataSource")
    DataSource dataSource;

    @Resource(lookup = "java:comp/UserTransaction")
    UserTransaction transaction;

    @Inject
    MessageCount count;

    @POST
    @Path("drain")
    public Map<String, Object> drain(@QueryParam("jobs") int jobs) throws Exception {
        int preparable = preparedTransactionSlots();
        if (preparable == 0) {
            return Map.of("unavailable", "PostgreSQL's max_prepared_transactions is 0, so it cannot take part in"
                    + " two-phase commit; set it to 16 or more and restart PostgreSQL");
        }
        endpoint("pause");
        emptyTable();
        discardLeftMessages();
        send(jobs);
        count.reset();
        Thread.sleep(STATS_SETTLE_MILLIS);
        long commitsBefore = commits();
        long start = System.nanoTime();
        endpoint("resume");
        while (count.value() < jobs) {
            Thread.sleep(2);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        endpoint("pause");
        Thread.sleep(STATS_SETTLE_MILLIS);
        long commitsAfter = commits();
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("jobs", jobs);
        result.put("seconds", seconds);
        result.put("jobsPerSecond", jobs / seconds);
        result.put("transactionsPerJob", (double) (commitsAfter - commitsBefore) / jobs);
        result.put("rows", rows());
        emptyTable();
        return result;
    }

    /** Persistent messages, {@value #SENDS_PER_TRANSACTION} to a transaction, each carrying its number. */
    private void send(int jobs) throws Exception {
        for (int first = 0; first < jobs; first += SENDS_PER_TRANSACTION) {
            transaction.begin();
            try (JMSContext context = connectionFactory.createContext()) {
                JMSProducer producer = context.createProducer();
                for (int i = first; i < Math.min(jobs, first + SENDS_PER_TRANSACTION); i++) {
                    producer.send(queue, Integer.toString(i));
                }
            }
            transaction.commit();
        }
    }

    /** Receives and drops the messages an earlier drain that failed half-way left on the queue. */
    private void discardLeftMessages() {
        try (JMSContext context = connectionFactory.createContext(JMSContext.AUTO_ACKNOWLEDGE);
                JMSConsumer consumer = context.createConsumer(queue)) {
            while (consumer.receiveNoWait() != null) {
                // dropped
            }
        }
    }

    private void endpoint(String operation) throws JMException {
        ManagementFactory.getPlatformMBeanServer().invoke(new ObjectName(ENDPOINT_CONTROL), operation,
                new Object[] {ENDPOINT}, new String[] {String.class.getName()});
    }

    private int preparedTransactionSlots() throws SQLException {
        return Integer.parseInt(query("SHOW max_prepared_transactions"));
    }

    private void emptyTable() throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS " + TABLE + " (message_id VARCHAR(100) PRIMARY KEY,"
                    + " body VARCHAR(20) NOT NULL)");
            statement.execute("TRUNCATE " + TABLE);
        }
    }

    private long rows() throws SQLException {
        return Long.parseLong(query("SELECT COUNT(*) FROM " + TABLE));
    }

    private long commits() throws SQLException {
        return Long.parseLong(query("SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"));
    }

    private String query(String sql) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(sql)) {
            row.next();
            return row.getString(1);
        }
    }
}
