package dev.jobqueue.failure;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** What the database says happened: the job table, the logged starts and the written effects. */
final class Ledger {

    /** One logged start of a job's attempt. */
    record Start(String node, int attempt, long startedAt) {
    }

    private final TestDatabase db;

    Ledger(TestDatabase db) {
        this.db = db;
    }

    long jobs() throws SQLException {
        return count("SELECT COUNT(*) FROM jobqueue_job");
    }

    long done() throws SQLException {
        return count("SELECT COUNT(*) FROM jobqueue_job WHERE state = 'DONE'");
    }

    /** The RUNNING jobs now, with their attempt counts. */
    Map<String, Integer> running() throws SQLException {
        Map<String, Integer> running = new HashMap<>();
        try (Connection connection = db.connect();
             PreparedStatement query = connection.prepareStatement(
                     "SELECT id, attempts FROM jobqueue_job WHERE state = 'RUNNING'");
             ResultSet rows = query.executeQuery()) {
            while (rows.next()) {
                running.put(rows.getString(1), rows.getInt(2));
            }
        }
        return running;
    }

    /** The RUNNING jobs now, with their lease tokens. */
    Map<String, String> leases() throws SQLException {
        Map<String, String> leases = new HashMap<>();
        try (Connection connection = db.connect();
             PreparedStatement query = connection.prepareStatement(
                     "SELECT id, lease_token FROM jobqueue_job WHERE state = 'RUNNING'");
             ResultSet rows = query.executeQuery()) {
            while (rows.next()) {
                leases.put(rows.getString(1), rows.getString(2));
            }
        }
        return leases;
    }

    /** Whether none of {@code leases} (job id to lease token) holds its job any more: each job left or was claimed anew. */
    boolean released(Map<String, String> leases) throws SQLException {
        try (Connection connection = db.connect();
             PreparedStatement query = connection.prepareStatement(
                     "SELECT state, lease_token FROM jobqueue_job WHERE id = ?")) {
            for (Map.Entry<String, String> lease : leases.entrySet()) {
                query.setString(1, lease.getKey());
                try (ResultSet row = query.executeQuery()) {
                    row.next();
                    if (row.getString(1).equals("RUNNING") && lease.getValue().equals(row.getString(2))) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /** Whether each of {@code jobs} is DONE or has been claimed again since its attempt count was taken. */
    boolean finishedOrClaimedAgain(Map<String, Integer> jobs) throws SQLException {
        try (Connection connection = db.connect();
             PreparedStatement query = connection.prepareStatement(
                     "SELECT state, attempts FROM jobqueue_job WHERE id = ?")) {
            for (Map.Entry<String, Integer> job : jobs.entrySet()) {
                query.setString(1, job.getKey());
                try (ResultSet row = query.executeQuery()) {
                    row.next();
                    if (!row.getString(1).equals("DONE") && row.getInt(2) <= job.getValue()) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /** Every logged start, by job. */
    Map<String, List<Start>> starts() throws SQLException {
        Map<String, List<Start>> starts = new HashMap<>();
        try (Connection connection = db.connect();
             PreparedStatement query = connection.prepareStatement(
                     "SELECT job_id, node, attempt, started_at FROM failure_start ORDER BY started_at");
             ResultSet rows = query.executeQuery()) {
            while (rows.next()) {
                starts.computeIfAbsent(rows.getString(1), id -> new ArrayList<>())
                        .add(new Start(rows.getString(2), rows.getInt(3), rows.getLong(4)));
            }
        }
        return starts;
    }

    long effects() throws SQLException {
        return count("SELECT COUNT(*) FROM failure_effect");
    }

    /** Jobs whose effect was written more than once: the extra rows. */
    long duplicateEffects() throws SQLException {
        return effects() - count("SELECT COUNT(DISTINCT job_id) FROM failure_effect");
    }

    /** How many effects each node wrote, optionally only those written after {@code sinceMillis}. */
    Map<String, Long> effectsByNode(long sinceMillis) throws SQLException {
        Map<String, Long> byNode = new HashMap<>();
        try (Connection connection = db.connect();
             PreparedStatement query = connection.prepareStatement(
                     "SELECT node, COUNT(*) FROM failure_effect WHERE done_at > ? GROUP BY node")) {
            query.setLong(1, sinceMillis);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    byNode.put(rows.getString(1), rows.getLong(2));
                }
            }
        }
        return byNode;
    }

    Set<Integer> orders() throws SQLException {
        return numbers("SELECT n FROM failure_order");
    }

    Set<Integer> orderEffects() throws SQLException {
        return numbers("SELECT n FROM failure_effect WHERE queue = 'orders'");
    }

    private Set<Integer> numbers(String sql) throws SQLException {
        Set<Integer> numbers = new HashSet<>();
        try (Connection connection = db.connect();
             PreparedStatement query = connection.prepareStatement(sql);
             ResultSet rows = query.executeQuery()) {
            while (rows.next()) {
                numbers.add(rows.getInt(1));
            }
        }
        return numbers;
    }

    /** The jobs of {@code queue}, and how many distinct dedupe keys they hold. */
    long[] jobsAndKeys(String queue) throws SQLException {
        return new long[] {count("SELECT COUNT(*) FROM jobqueue_job WHERE queue = '" + queue + "'"),
            count("SELECT COUNT(DISTINCT dedupe_key) FROM jobqueue_job WHERE queue = '" + queue + "'")};
    }

    /** The {@code n} of every effect written by jobs of {@code queue}, in order, repeats included. */
    List<Long> effectNumbers(String queue) throws SQLException {
        List<Long> numbers = new ArrayList<>();
        try (Connection connection = db.connect();
             PreparedStatement query = connection.prepareStatement(
                     "SELECT n FROM failure_effect WHERE queue = ? ORDER BY n")) {
            query.setString(1, queue);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    numbers.add(rows.getLong(1));
                }
            }
        }
        return numbers;
    }

    /** Whether the schedule fires: its {@code enabled} column. */
    boolean scheduleEnabled(String name) throws SQLException {
        return scheduleFlag("enabled", name);
    }

    /** Whether the schedule was turned off because no running node declared it: its {@code declaration_gone}. */
    boolean declarationGone(String name) throws SQLException {
        return scheduleFlag("declaration_gone", name);
    }

    private boolean scheduleFlag(String column, String name) throws SQLException {
        try (Connection connection = db.connect();
             PreparedStatement query = connection.prepareStatement(
                     "SELECT " + column + " FROM jobqueue_schedule WHERE name = ?")) {
            query.setString(1, name);
            try (ResultSet row = query.executeQuery()) {
                row.next();
                return row.getBoolean(1);
            }
        }
    }

    private long count(String sql) throws SQLException {
        try (Connection connection = db.connect();
             PreparedStatement query = connection.prepareStatement(sql);
             ResultSet row = query.executeQuery()) {
            row.next();
            return row.getLong(1);
        }
    }
}
