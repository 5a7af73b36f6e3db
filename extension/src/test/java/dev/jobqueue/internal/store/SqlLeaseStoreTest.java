package dev.jobqueue.internal.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jobqueue.internal.store.LeaseStore.UnrenewedLeases;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The start-up take-back's SQL, on H2 with jobqueue's schema: of the leases noted under a node's name, only
 * those still held by the same attempt with the same expiry are taken back; one renewed since is left and
 * counted, and one finished or claimed again since is left alone.
 */
class SqlLeaseStoreTest {

    private static final Instant LEASE = Instant.parse("2026-03-01T09:05:00Z");

    private final JdbcDataSource dataSource = new JdbcDataSource();
    private final SqlLeaseStore store = new SqlLeaseStore();
    /** The connection that created the schema, open throughout: H2 evaluates generated columns in its session. */
    private Connection creator;

    @BeforeEach
    void createSchema() throws SQLException {
        dataSource.setURL("jdbc:h2:mem:" + UUID.randomUUID());
        store.jdbc = new TransactionalJdbc();
        store.jdbc.dataSource = dataSource;
        creator = dataSource.getConnection();
        try (Statement sql = creator.createStatement()) {
            sql.execute("RUNSCRIPT FROM 'classpath:/META-INF/jobqueue/schema/h2.sql'");
        }
    }

    @AfterEach
    void dropDatabase() throws SQLException {
        creator.close();
    }

    @Test
    void only_the_leases_that_did_not_move_since_they_were_noted_are_taken_back() throws SQLException {
        running("dead", "node-1");
        running("renewed", "node-1");
        running("finished", "node-1");
        running("claimed-again", "node-1");
        running("other-node", "node-2");
        List<HeldLease> noted = store.leasesOf("node-1");

        execute("UPDATE jobqueue_job SET lease_expires_at = DATEADD(SECOND, 5, lease_expires_at) WHERE id = 'renewed'");
        execute("UPDATE jobqueue_job SET state = 'DONE', lease_token = NULL WHERE id = 'finished'");
        execute("UPDATE jobqueue_job SET lease_token = 'token-2', attempts = 2 WHERE id = 'claimed-again'");
        UnrenewedLeases unrenewed = store.takeBackUnrenewed(noted);

        assertEquals(4, noted.size(), "the leases recorded under node-1: " + noted);
        assertEquals(List.of("dead"), unrenewed.rescued().stream().map(RescuedJob::id).toList());
        assertEquals(1, unrenewed.renewed(), "the renewed lease tells of a live process");
        assertEquals(List.of(), unrenewed.locked());
        assertEquals(List.of("claimed-again", "dead:PENDING", "finished", "other-node", "renewed"), states());
    }

    @Test
    void a_lease_whose_row_another_transaction_holds_is_skipped_and_reported_to_try_again() throws SQLException {
        running("dead", "node-1");
        running("held", "node-1");
        List<HeldLease> noted = store.leasesOf("node-1");

        try (Connection other = dataSource.getConnection()) {
            other.setAutoCommit(false);
            try (Statement lock = other.createStatement()) {
                lock.executeQuery("SELECT id FROM jobqueue_job WHERE id = 'held' FOR UPDATE").close();
            }
            UnrenewedLeases unrenewed = store.takeBackUnrenewed(noted);

            assertEquals(List.of("dead"), unrenewed.rescued().stream().map(RescuedJob::id).toList());
            assertEquals(List.of("held"), unrenewed.locked().stream().map(HeldLease::id).toList(),
                    "the held row, its lease unmoved, to try again");
            other.rollback();
        }
        assertEquals(List.of("dead:PENDING", "held"), states());
    }

    @Test
    void nothing_noted_is_nothing_to_take_back() {
        assertEquals(new UnrenewedLeases(List.of(), 0, List.of()), store.takeBackUnrenewed(List.of()));
    }

    private void running(String id, String node) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement insert = connection.prepareStatement("INSERT INTO jobqueue_job (id, queue, state,"
                     + " payload, attempts, run_at, created_at, lease_token, lease_expires_at, claimed_by)"
                     + " VALUES (?, 'reports', 'RUNNING', '{}', 1, ?, ?, ?, ?, ?)")) {
            insert.setString(1, id);
            insert.setObject(2, LEASE.minusSeconds(600).atOffset(ZoneOffset.UTC));
            insert.setObject(3, LEASE.minusSeconds(600).atOffset(ZoneOffset.UTC));
            insert.setString(4, "token-" + id);
            insert.setObject(5, LEASE.atOffset(ZoneOffset.UTC));
            insert.setString(6, node);
            insert.executeUpdate();
        }
    }

    /** Each job's id, with its state where it is PENDING with no lease, in id order. */
    private List<String> states() throws SQLException {
        try (Connection connection = dataSource.getConnection();
             Statement sql = connection.createStatement();
             ResultSet rows = sql.executeQuery("SELECT id, state, lease_token FROM jobqueue_job ORDER BY id")) {
            List<String> states = new ArrayList<>();
            while (rows.next()) {
                boolean released = rows.getString(2).equals("PENDING") && rows.getString(3) == null;
                states.add(rows.getString(1) + (released ? ":PENDING" : ""));
            }
            return states;
        }
    }

    private void execute(String statement) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement sql = connection.createStatement()) {
            sql.execute(statement);
        }
    }
}
