package dev.jobqueue.internal.store;

import dev.jobqueue.internal.Messages;
import dev.jobqueue.internal.SafeText;
import dev.jobqueue.internal.config.QueueLimits;
import dev.jobqueue.internal.config.RateLimit;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.logging.Logger;

/**
 * A queue's row in {@code jobqueue_queue} as a claim under limits reads it, locked until the claim commits: so
 * the claims of a limited queue take turns, on all nodes, and each sees the starts and RUNNING jobs of the last.
 *
 * @param queue        the queue
 * @param paused       whether an admin paused it
 * @param pausedUntil  the end of a consumer's backoff, or null
 * @param limits       the configured limits with the row's overrides applied
 * @param startWindow  the starts of the last period
 */
record QueueFlow(String queue, boolean paused, Instant pausedUntil, QueueLimits limits, StartWindow startWindow) {

    private static final Logger LOG = Logger.getLogger(QueueFlow.class.getName());

    /** Whether no job of the queue may start at {@code now}. */
    boolean pausedAt(Instant now) {
        return paused || pausedUntil != null && pausedUntil.isAfter(now);
    }

    /**
     * Locks the queue's row, creating it if it has none, and reads it. An override or a window that cannot be read
     * is logged and rewritten: the configuration applies, and the window counts a full period of starts.
     */
    static QueueFlow lock(Connection connection, Database db, String queue, QueueLimits configured, Instant now)
            throws SQLException {
        QueueFlow flow = read(connection, queue, configured, now, db);
        if (flow == null) {
            createRow(connection, db, queue, now);
            flow = read(connection, queue, configured, now, db);
            if (flow == null) {
                throw new SQLException("jobqueue: the row of queue " + queue + " in jobqueue_queue cannot be made");
            }
        }
        return flow;
    }

    /** The locked row, or null if the queue has none. */
    private static QueueFlow read(Connection connection, String queue, QueueLimits configured, Instant now,
            Database db) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT paused, paused_until, rate_limit,"
                + " max_running, start_window FROM jobqueue_queue WHERE name = ? FOR UPDATE")) {
            select.setString(1, queue);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    return null;
                }
                boolean paused = row.getBoolean(1);
                Instant pausedUntil = db.instant(row, 2);
                String rateOverride = row.getString(3);
                int maxRunning = row.getInt(4);
                Integer maxRunningOverride = row.wasNull() ? null : maxRunning;
                String window = row.getString(5);
                QueueLimits limits = limits(connection, queue, configured, rateOverride, maxRunningOverride);
                QueueFlow flow = new QueueFlow(queue, paused, pausedUntil, limits, StartWindow.parse(null));
                return flow.withWindow(connection, window, now);
            }
        }
    }

    /** How many of the queue's jobs are RUNNING on all nodes, claimed jobs waiting for a runner included. */
    int running(Connection connection) throws SQLException {
        try (PreparedStatement count = connection.prepareStatement(
                "SELECT COUNT(*) FROM jobqueue_job WHERE queue = ? AND state = 'RUNNING'")) {
            count.setString(1, queue);
            try (ResultSet row = count.executeQuery()) {
                row.next();
                return row.getInt(1);
            }
        }
    }

    /** Writes the window of starts, as the claim leaves it. */
    void saveWindow(Connection connection, StartWindow window) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement(
                "UPDATE jobqueue_queue SET start_window = ? WHERE name = ?")) {
            update.setString(1, window.toString());
            update.setString(2, queue);
            update.executeUpdate();
        }
    }

    /** Pauses the queue on every node until {@code until}, unless a longer pause is in force. */
    static void pauseUntil(Connection connection, Database db, String queue, Instant until, Instant now)
            throws SQLException {
        createRow(connection, db, queue, now);
        try (PreparedStatement update = connection.prepareStatement("UPDATE jobqueue_queue SET paused_until = ?,"
                + " updated_at = ? WHERE name = ? AND (paused_until IS NULL OR paused_until < ?)")) {
            db.bind(update, 1, until);
            db.bind(update, 2, now);
            update.setString(3, queue);
            db.bind(update, 4, until);
            update.executeUpdate();
        }
    }

    /** Makes the queue's row, unpaused and without limits, unless it has one. */
    static void createRow(Connection connection, Database db, String queue, Instant now) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO jobqueue_queue (name, paused,"
                + " updated_at) VALUES (?, FALSE, ?)" + db.insertUnlessDuplicate("name"))) {
            insert.setString(1, queue);
            db.bind(insert, 2, now);
            insert.executeUpdate();
        } catch (SQLException e) {
            // H2 has no insert that passes over a duplicate: the row is there, which is all this wants.
            if (e.getSQLState() == null || !e.getSQLState().startsWith("23")) {
                throw e;
            }
        }
    }

    private static QueueLimits limits(Connection connection, String queue, QueueLimits configured,
            String rateOverride, Integer maxRunningOverride) throws SQLException {
        String rate = rateOverride;
        Integer maxRunning = maxRunningOverride;
        if (rate != null && !QueueLimits.NONE.equals(rate)) {
            try {
                RateLimit.parse(rate);
            } catch (IllegalArgumentException e) {
                LOG.warning(Messages.badLimitOverride(queue, "rate_limit", SafeText.of(rate), e.getMessage()));
                clear(connection, queue, "rate_limit");
                rate = null;
            }
        }
        if (maxRunning != null && maxRunning < 0) {
            LOG.warning(Messages.badLimitOverride(queue, "max_running", maxRunning.toString(), "negative"));
            clear(connection, queue, "max_running");
            maxRunning = null;
        }
        return configured.overriddenBy(rate, maxRunning);
    }

    private static void clear(Connection connection, String queue, String column) throws SQLException {
        // The column is one of two names above, never input.
        try (PreparedStatement clear = connection.prepareStatement(
                "UPDATE jobqueue_queue SET " + column + " = NULL WHERE name = ?")) {
            clear.setString(1, queue);
            clear.executeUpdate();
        }
    }

    /** With the window of starts; one that cannot be read counts a full period of starts from now, and is rewritten. */
    private QueueFlow withWindow(Connection connection, String text, Instant now) throws SQLException {
        StartWindow window;
        try {
            window = StartWindow.parse(text);
        } catch (IllegalArgumentException e) {
            if (limits.rate() == null) {
                return this;
            }
            LOG.warning(Messages.badStartWindow(queue, SafeText.of(text)));
            window = StartWindow.full(limits.rate(), now);
            saveWindow(connection, window);
        }
        return new QueueFlow(queue, paused, pausedUntil, limits, window);
    }
}
