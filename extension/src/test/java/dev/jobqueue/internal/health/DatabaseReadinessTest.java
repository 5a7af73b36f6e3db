package dev.jobqueue.internal.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.internal.fixtures.LogCapture;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class DatabaseReadinessTest {

    private static final String SQL_ERROR = "FATAL: password authentication failed for user \"jq_owner\""
            + " (connection to db-7.corp.internal:5432)";
    private static final DatabaseReadiness.Probe FAILING = () -> {
        throw new SQLException(SQL_ERROR, "28P01");
    };
    private static final DatabaseReadiness.Probe PASSING = () -> {
    };

    private LogCapture log;
    private List<LogRecord> logged;

    @BeforeEach
    void captureLog() {
        log = new LogCapture(DatabaseReadiness.class.getName());
        logged = log.records;
    }

    @AfterEach
    void releaseLog() {
        log.close();
    }

    @Test
    void a_down_answer_names_no_host_user_or_sql_error_and_points_to_the_log() {
        HealthCheckResponse response = new DatabaseReadiness().check(FAILING);

        assertEquals(HealthCheckResponse.Status.DOWN, response.getStatus());
        assertEquals("jobqueue-database", response.getName());
        String error = String.valueOf(response.getData().orElseThrow().get("error"));
        assertTrue(error.startsWith("JQ085: the database cannot be reached"), error);
        assertFalse(response.getData().toString().contains("jq_owner"), response.getData().toString());
        assertFalse(response.getData().toString().contains("db-7"), response.getData().toString());
        assertFalse(response.getData().toString().contains("FATAL"), response.getData().toString());
    }

    @Test
    void the_detail_is_logged_once_per_outage_not_at_every_call() {
        DatabaseReadiness readiness = new DatabaseReadiness();

        for (int call = 0; call < 5; call++) {
            readiness.check(FAILING);
        }
        assertEquals(1, logged.size(), "one line for an outage however often readiness is asked");
        assertEquals(Level.WARNING, logged.get(0).getLevel());
        assertTrue(logged.get(0).getMessage().contains(SQL_ERROR), logged.get(0).getMessage());

        assertEquals(HealthCheckResponse.Status.UP, readiness.check(PASSING).getStatus());
        readiness.check(PASSING);
        assertEquals(2, logged.size(), "one line for the recovery");
        assertEquals(Level.INFO, logged.get(1).getLevel());

        readiness.check(FAILING);
        readiness.check(FAILING);
        assertEquals(3, logged.size(), "a new outage is logged again, once");
    }

    @Test
    void an_up_answer_carries_no_data() {
        HealthCheckResponse response = new DatabaseReadiness().check(PASSING);

        assertEquals(HealthCheckResponse.Status.UP, response.getStatus());
        assertEquals(Optional.<Map<String, Object>>empty(), response.getData());
        assertTrue(logged.isEmpty());
    }
}
