package dev.jobqueue.internal.store;

import dev.jobqueue.internal.JndiNames;
import dev.jobqueue.internal.Messages;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Makes sure the job table is there before any job is put or claimed. It can create the table from the
 * shipped DDL ({@code jobqueue.schema.create=true}); otherwise it fails the start-up with a message naming
 * the script to run. On MariaDB it also makes sure that keys compare byte for byte, which tables created by
 * an earlier version of the DDL do not.
 */
@ApplicationScoped
public class SchemaCheck {

    private static final Logger LOG = Logger.getLogger(SchemaCheck.class.getName());
    private static final String SCRIPT_FOLDER = "META-INF/jobqueue/schema/";
    private static final String MARIADB_EXACT_KEYS = SCRIPT_FOLDER + "upgrade/mariadb-exact-keys.sql";
    /** The collation of MariaDB's key columns: binary, and NO PAD, so 'a' and 'a ' are two keys. */
    private static final String EXACT_COLLATION = "utf8mb4_nopad_bin";
    /** Every column that holds a queue name, a key or a group name, as table.column. */
    private static final List<String> KEY_COLUMNS = List.of("jobqueue_job.queue", "jobqueue_job.dedupe_key",
            "jobqueue_job.dedupe_slot", "jobqueue_job.ordering_key", "jobqueue_job.group_name", "jobqueue_group.name",
            "jobqueue_queue.name", "jobqueue_schedule.name", "jobqueue_schedule.queue");
    private static final List<String> PROBES = List.of(
            "SELECT id, seq, queue, state, payload, attempts, priority, run_at, created_at, started_at, finished_at,"
                    + " lease_token, lease_expires_at, last_error, dedupe_key, ordering_key, group_name, has_dependents, claimed_by,"
                    + " trace_parent, trace_state, progress, progress_note, progress_attempt, progress_at"
                    + " FROM jobqueue_job WHERE 1 = 0",
            "SELECT job_id, depends_on FROM jobqueue_job_dependency WHERE 1 = 0",
            "SELECT name, created_at FROM jobqueue_group WHERE 1 = 0",
            "SELECT id, job_id, attempt, failed_at, error FROM jobqueue_job_error WHERE 1 = 0",
            "SELECT name, paused, updated_at, paused_until, rate_limit, max_running, start_window FROM jobqueue_queue"
                    + " WHERE 1 = 0",
            "SELECT name, queue, cron, zone, payload, missed, missed_after_ms, catch_up_limit, overlap, declared, enabled,"
                    + " paused, next_fire_at, last_fire_at, last_job_id, updated_at, declaration_gone FROM jobqueue_schedule"
                    + " WHERE 1 = 0",
            "SELECT schedule, fingerprint, declared_at, seen_at FROM jobqueue_schedule_declaration WHERE 1 = 0");

    @Resource(lookup = JndiNames.DATASOURCE)
    DataSource dataSource;

    /** For CDI, which injects the data source. */
    SchemaCheck() {
    }

    /** Checks, or creates, the schema of a data source outside a container. */
    public SchemaCheck(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * @param create whether to run the shipped DDL first, and on MariaDB to make the key columns exact
     * @throws IllegalStateException if the table or one of its columns is missing, or on MariaDB if the key
     *                               columns do not compare byte for byte
     */
    public void verify(boolean create) {
        try (Connection connection = dataSource.getConnection()) {
            Database database = Database.of(connection.getMetaData().getDatabaseProductName());
            String script = SCRIPT_FOLDER + database.script();
            if (create) {
                SchemaLock.around(connection, database, () -> {
                    run(connection, script);
                    if (database == Database.MARIADB && !inexactKeyColumns(connection).isEmpty()) {
                        run(connection, MARIADB_EXACT_KEYS);
                    }
                });
            }
            probe(connection, script);
            if (database == Database.MARIADB) {
                requireExactKeys(connection);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(Messages.databaseFailedAtStart(e.getMessage()), e);
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
     * MariaDB compares strings with the column's collation, and its default ignores case, accents and trailing
     * spaces: a put with dedupe key 'Ab1' would find 'ab1' held and write nothing. Tables from mariadb.sql
     * before keys were made exact are converted when jobqueue may change the schema, and refused otherwise.
     */
    private static void requireExactKeys(Connection connection) throws SQLException {
        List<String> inexact = inexactKeyColumns(connection);
        if (!inexact.isEmpty()) {
            throw new IllegalStateException(Messages.inexactKeyColumns(String.join(", ", inexact),
                    MARIADB_EXACT_KEYS));
        }
    }

    private static List<String> inexactKeyColumns(Connection connection) throws SQLException {
        List<String> inexact = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement("SELECT table_name, column_name, collation_name"
                + " FROM information_schema.columns WHERE table_schema = DATABASE()"
                + " AND table_name IN ('jobqueue_job', 'jobqueue_group', 'jobqueue_queue', 'jobqueue_schedule')");
                ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                String column = rows.getString(1) + "." + rows.getString(2);
                if (KEY_COLUMNS.contains(column) && !EXACT_COLLATION.equals(rows.getString(3))) {
                    inexact.add(column);
                }
            }
        }
        return inexact;
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
                throw new IllegalStateException(Messages.missingScript(script));
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(Messages.missingScript(script), e);
        }
    }
}
