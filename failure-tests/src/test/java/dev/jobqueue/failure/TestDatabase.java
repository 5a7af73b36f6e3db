package dev.jobqueue.failure;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;
import org.mariadb.jdbc.MariaDbDataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The database the nodes share, seen from the test: it is created afresh, counted, and stopped and started
 * for the outage scenario, with the commands that start this machine's services.
 */
enum TestDatabase {

    POSTGRESQL("jdbc:postgresql://127.0.0.1:5432/", "postgres") {
        @Override
        void recreate() throws SQLException {
            try (Connection admin = DriverManager.getConnection(baseUrl + "test", user, "");
                 Statement sql = admin.createStatement()) {
                sql.execute("DROP DATABASE IF EXISTS " + NAME + " WITH (FORCE)");
                sql.execute("CREATE DATABASE " + NAME);
            }
        }

        @Override
        List<String> stopCommand() {
            if (PGBOUNCER_PORT != null) {
                return List.of(PGBOUNCER_SCRIPT, "kill", PGBOUNCER_PORT.toString());
            }
            return List.of("pg_ctlcluster", clusterVersion(), "main", "stop", "-m", "fast");
        }

        @Override
        List<String> startCommand() {
            if (PGBOUNCER_PORT != null) {
                return List.of(PGBOUNCER_SCRIPT, "start", PGBOUNCER_PORT.toString());
            }
            return List.of("pg_ctlcluster", "--skip-systemctl-redirect", clusterVersion(), "main", "start");
        }

        @Override
        String libertyName() {
            return PGBOUNCER_PORT == null ? "postgresql" : "postgresql-pgbouncer";
        }

        @Override
        String url(String database) {
            return PGBOUNCER_PORT == null ? super.url(database)
                    : "jdbc:postgresql://127.0.0.1:" + PGBOUNCER_PORT + "/" + database + "?prepareThreshold=0";
        }

        @Override
        String nodeSettings() {
            return PGBOUNCER_PORT == null ? "" : "jobqueue.db.port=" + PGBOUNCER_PORT + "\n";
        }
    },

    /**
     * The pg_auto_failover formation of pg-auto-failover.sh: a primary and a secondary, reached through pgjdbc's
     * multi-host URL. A stop kills the primary, so that the secondary takes over; a start brings the killed node
     * back as the new secondary. With {@link #PGBOUNCER_PORT} the nodes' jobs go through PgBouncer, which
     * {@link BouncerFollowsPrimary} leads to the primary, and only their LISTEN connection reaches the formation
     * directly; the test's own connections always do.
     */
    POSTGRESQL_HA("jdbc:postgresql://" + Formation.HOSTS + "/", "postgres") {
        @Override
        void recreate() throws SQLException {
            try (Connection admin = DriverManager.getConnection(url("postgres"), user, "");
                 Statement sql = admin.createStatement()) {
                sql.execute("DROP DATABASE IF EXISTS " + NAME + " WITH (FORCE)");
                sql.execute("CREATE DATABASE " + NAME);
            }
        }

        @Override
        List<String> stopCommand() {
            return Formation.command("kill-primary");
        }

        @Override
        List<String> startCommand() {
            return Formation.command("rejoin");
        }

        @Override
        String libertyName() {
            return PGBOUNCER_PORT == null ? "postgresql-ha" : "postgresql-ha-pgbouncer";
        }

        @Override
        String schemaName() {
            return "postgresql";
        }

        @Override
        String url(String database) {
            return super.url(database) + "?targetServerType=primary&connectTimeout=3";
        }

        @Override
        String nodeSettings() {
            return PGBOUNCER_PORT == null ? "jobqueue.db.hosts=" + Formation.HOSTS + "\n"
                    : "jobqueue.db.hosts=127.0.0.1:" + PGBOUNCER_PORT + "\njobqueue.db.listen.hosts=" + Formation.HOSTS
                    + "\n";
        }
    },

    MARIADB("jdbc:mariadb://127.0.0.1:3306/", "root") {
        @Override
        void recreate() throws SQLException {
            try (Connection admin = DriverManager.getConnection(url("test"), user, "");
                 Statement sql = admin.createStatement()) {
                sql.execute("DROP DATABASE IF EXISTS " + NAME);
                sql.execute("CREATE DATABASE " + NAME);
            }
        }

        @Override
        List<String> stopCommand() {
            return List.of("mysqladmin", "-h", "127.0.0.1", "-P", "3306", "-u", "root", "shutdown");
        }

        @Override
        List<String> startCommand() {
            return List.of("start-stop-daemon", "--start", "--oknodo", "--background", "--exec",
                    "/usr/sbin/mariadbd");
        }
    };

    /**
     * The failure tests' own database, so that they never touch the other tests' tables; {@code -Dfailure.db.name}
     * gives another, for a second run beside this one.
     */
    static final String NAME = System.getProperty("failure.db.name", "jobqueue_failure");

    /**
     * PgBouncer's port, when the nodes and the test reach PostgreSQL through it in transaction mode
     * ({@code -Dfailure.pgbouncer.port}, set by the {@code pgbouncer} profile). A database restart then kills PgBouncer
     * and starts it again: the PostgreSQL server on this machine is shared, and stays up.
     */
    static final Integer PGBOUNCER_PORT = Integer.getInteger("failure.pgbouncer.port");
    static final String PGBOUNCER_SCRIPT = java.nio.file.Path.of("pgbouncer.sh").toAbsolutePath().toString();

    final String baseUrl;
    final String user;

    TestDatabase(String baseUrl, String user) {
        this.baseUrl = baseUrl;
        this.user = user;
    }

    static TestDatabase fromSystemProperty() {
        return valueOf(System.getProperty("jobqueue.db", "postgresql").toUpperCase().replace('-', '_'));
    }

    /** The Liberty datasource file's suffix, datasource-{name}.xml, and the database as the SUMMARY lines name it. */
    String libertyName() {
        return name().toLowerCase();
    }

    /** The schema script's name: META-INF/jobqueue/schema/{name}.sql. */
    String schemaName() {
        return name().toLowerCase();
    }

    /** Lines of the nodes' bootstrap.properties beyond the database's name and credentials. */
    String nodeSettings() {
        return "";
    }

    /** Drops and creates {@link #NAME}. */
    abstract void recreate() throws SQLException;

    abstract List<String> stopCommand();

    abstract List<String> startCommand();

    String url(String database) {
        return baseUrl + database;
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(url(NAME), user, "");
    }

    /** A data source of {@link #NAME}, as a node's datasource gives connections. */
    DataSource dataSource() throws SQLException {
        if (this == MARIADB) {
            MariaDbDataSource mariadb = new MariaDbDataSource(url(NAME));
            mariadb.setUser(user);
            return mariadb;
        }
        PGSimpleDataSource postgresql = new PGSimpleDataSource();
        postgresql.setURL(url(NAME));
        postgresql.setUser(user);
        return postgresql;
    }

    /** Creates the tables the test application writes to. */
    void createApplicationTables() throws SQLException {
        try (Connection connection = connect(); Statement sql = connection.createStatement()) {
            sql.execute("CREATE TABLE failure_start (job_id VARCHAR(36) NOT NULL, n INTEGER NOT NULL,"
                    + " attempt INTEGER NOT NULL, node VARCHAR(8) NOT NULL, started_at BIGINT NOT NULL)");
            sql.execute("CREATE TABLE failure_effect (job_id VARCHAR(36) NOT NULL, queue VARCHAR(100) NOT NULL,"
                    + " n INTEGER NOT NULL, node VARCHAR(8) NOT NULL, done_at BIGINT NOT NULL)");
            sql.execute("CREATE TABLE failure_order (n INTEGER NOT NULL PRIMARY KEY)");
        }
    }

    /** Empties the job and application tables between scenarios; no job may be running. */
    void clear() throws SQLException {
        try (Connection connection = connect(); Statement sql = connection.createStatement()) {
            for (String table : List.of("jobqueue_job_error", "jobqueue_job", "failure_start", "failure_effect",
                    "failure_order")) {
                sql.execute("DELETE FROM " + table);
            }
        }
    }

    void stop() throws IOException, InterruptedException {
        Commands.run(stopCommand(), Duration.ofSeconds(60));
        Commands.awaitTrue(() -> !reachable(), Duration.ofSeconds(60), "the database to stop");
    }

    void start() throws IOException, InterruptedException {
        Commands.run(startCommand(), Duration.ofSeconds(60));
        Commands.awaitTrue(this::reachable, Duration.ofSeconds(90), "the database to start");
    }

    boolean reachable() {
        try (Connection connection = connect(); Statement sql = connection.createStatement()) {
            sql.execute("SELECT 1");
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    private static String clusterVersion() {
        try {
            return Commands.output(List.of("ls", "/etc/postgresql")).lines().sorted().reduce((a, b) -> b)
                    .orElseThrow();
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException("cannot find the PostgreSQL cluster under /etc/postgresql", e);
        }
    }
}
