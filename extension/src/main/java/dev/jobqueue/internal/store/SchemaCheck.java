package dev.jobqueue.internal.store;

import dev.jobqueue.internal.Messages;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Makes sure the job table is there before any job is put or claimed. It can create the table from the
 * shipped DDL ({@code jobqueue.schema.create=true}); otherwise it fails the start-up with a message naming
 * the script to run.
 */
@ApplicationScoped
public class SchemaCheck {

    private static final Logger LOG = Logger.getLogger(SchemaCheck.class.getName());
    private static final int SCRIPT_ATTEMPTS = 3;
    private static final String SCRIPT_FOLDER = "META-INF/jobqueue/schema/";
    private static final List<String> PROBES = List.of(
            "SELECT id, seq, queue, state, payload, attempts, priority, run_at, created_at, started_at, finished_at,"
                    + " lease_token, lease_expires_at, last_error, dedupe_key, ordering_key, group_name, has_dependents"
                    + " FROM jobqueue_job WHERE 1 = 0",
            "SELECT job_id, depends_on FROM jobqueue_job_dependency WHERE 1 = 0",
            "SELECT name, created_at FROM jobqueue_group WHERE 1 = 0",
            "SELECT id, job_id, attempt, failed_at, error FROM jobqueue_job_error WHERE 1 = 0",
            "SELECT name, paused, updated_at FROM jobqueue_queue WHERE 1 = 0");

    @Resource(lookup = "java:comp/DefaultDataSource")
    DataSource dataSource;

    /** @throws IllegalStateException if the table or one of its columns is missing */
    public void verify(boolean create) {
        try (Connection connection = dataSource.getConnection()) {
            String script = SCRIPT_FOLDER + Database.of(connection.getMetaData().getDatabaseProductName()).script();
            if (create) {
                runAllowingRaces(connection, script);
            }
            probe(connection, script);
        } catch (SQLException e) {
            throw new IllegalStateException("JQ031: cannot reach the jobqueue database: " + e.getMessage(), e);
        }
    }

    /** Checks the tables can be read now; used by the readiness check. */
    public void probe() throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            probe(connection, SCRIPT_FOLDER + Database.of(connection.getMetaData().getDatabaseProductName()).script());
        }
    }

    private static void probe(Connection connection, String script) {
        try (Statement probe = connection.createStatement()) {
            for (String query : PROBES) {
                probe.executeQuery(query).close();
            }
        } catch (SQLException e) {
            throw new IllegalStateException(Messages.missingTable("jobqueue_job", script) + " (" + e.getMessage()
                    + ")", e);
        }
    }

    /**
     * Runs the idempotent script, again if it fails: nodes started together run it at the same time, and
     * PostgreSQL can then fail one node's CREATE ... IF NOT EXISTS with a duplicate-key error.
     */
    private static void runAllowingRaces(Connection connection, String script) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                run(connection, script);
                return;
            } catch (SQLException e) {
                if (attempt == SCRIPT_ATTEMPTS) {
                    throw e;
                }
                LOG.info("jobqueue: schema script " + script + " failed, as it does when another node runs it at"
                        + " the same time; running it again: " + e.getMessage());
            }
        }
    }

    private static void run(Connection connection, String script) throws SQLException {
        String sql = read(script);
        String[] statements = Arrays.stream(sql.split(";\\s*(\\n|$)"))
                .map(statement -> statement.lines().filter(line -> !line.trim().startsWith("--"))
                        .reduce("", (a, b) -> a + "\n" + b).trim())
                .filter(statement -> !statement.isEmpty()).toArray(String[]::new);
        try (Statement statement = connection.createStatement()) {
            for (String ddl : statements) {
                statement.execute(ddl);
            }
        }
        LOG.info(() -> "jobqueue: applied schema script " + script);
    }

    private static String read(String script) {
        try (InputStream in = SchemaCheck.class.getClassLoader().getResourceAsStream(script)) {
            if (in == null) {
                throw new IllegalStateException("JQ033: schema script " + script + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("JQ033: cannot read schema script " + script, e);
        }
    }
}
