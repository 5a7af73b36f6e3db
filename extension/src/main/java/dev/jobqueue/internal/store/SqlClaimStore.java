package dev.jobqueue.internal.store;

import dev.jobqueue.internal.config.QueueLimits;
import dev.jobqueue.internal.config.RateLimit;
import dev.jobqueue.internal.store.LimitedClaim.HeldBy;
import dev.jobqueue.internal.trace.TraceContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The {@link ClaimStore} on the database: one statement on PostgreSQL and two elsewhere, however many jobs a
 * claim takes, and under a queue's limits three to five.
 */
@ApplicationScoped
public class SqlClaimStore implements ClaimStore {

    @Inject
    TransactionalJdbc jdbc;

    @Override
    @Transactional(TxType.REQUIRES_NEW)
    public List<ClaimedJob> claim(String queue, int limit, String leaseToken, String node, Instant now,
            Instant leaseExpiresAt, boolean includeRetries, ClaimStart start) {
        return jdbc.run((connection, db) -> {
            if (db.updatesReturningRows()) {
                relaxDurability(connection);
            }
            return claimRows(connection, db, queue, limit, leaseToken, node, now, now, leaseExpiresAt,
                    includeRetries, start);
        });
    }

    /**
     * {@inheritDoc}
     *
     * <p>The queue's row is locked first, so the limited claims of a queue take turns on all nodes, and the time
     * the limits are measured at is then read from the database: each claim's is at least the last one's, whatever
     * the nodes' clocks say. Unlike an unlimited claim, this one commits durably on PostgreSQL too: the window of
     * starts must survive a crash of the database as surely as the starts do. Jobs beyond those that start at once
     * are claimed only under a rate limit alone: under {@code max-running} they would count as RUNNING while they
     * wait.
     */
    @Override
    @Transactional(TxType.REQUIRES_NEW)
    public LimitedClaim claimWithinLimits(String queue, QueueLimits configured, int limit, ClaimAhead ahead,
            String leaseToken, String node, Instant now, Instant databaseNow, Instant leaseExpiresAt,
            boolean includeRetries, ClaimStart start) {
        return jdbc.run((connection, db) -> {
            QueueFlow flow = QueueFlow.lock(connection, db, queue, configured, databaseNow);
            // The window keeps milliseconds: a start written finer than it keeps could fall outside a period it is in.
            Instant limitNow = statementTime(connection, db).orElse(databaseNow).truncatedTo(ChronoUnit.MILLIS);
            QueueLimits limits = flow.limits();
            if (flow.pausedAt(limitNow)) {
                return new LimitedClaim(List.of(), limits, HeldBy.PAUSE, flow.paused() ? null : flow.pausedUntil(),
                        Duration.ZERO);
            }
            Duration within = limits.rate() == null ? Duration.ZERO : startWithin(ahead, limits.rate());
            boolean mayClaimAhead = limits.maxRunning() == 0 && (limits.rate() == null || !within.isZero());
            int room = mayClaimAhead ? limit : Math.min(limit, ahead.atOnce());
            HeldBy heldBy = room < limit ? HeldBy.RUNNERS : HeldBy.NOTHING;
            if (limits.rate() != null) {
                int rateRoom = flow.startWindow().room(limits.rate(), limitNow);
                if (rateRoom < room && rateRoom > ahead.atOnce()) {
                    // Near the limit no job is taken ahead: a start counted late would keep its permit from the
                    // next period for longer than it needed, and a binding limit would lose part of its allowance.
                    room = ahead.atOnce();
                    heldBy = HeldBy.RUNNERS;
                } else if (rateRoom < room) {
                    room = rateRoom;
                    heldBy = HeldBy.RATE_LIMIT;
                }
            }
            if (limits.maxRunning() > 0) {
                int runningRoom = Math.max(0, limits.maxRunning() - flow.running(connection));
                if (runningRoom < room) {
                    room = runningRoom;
                    heldBy = HeldBy.MAX_RUNNING;
                }
            }
            List<ClaimedJob> jobs = room == 0 ? List.of() : claimRows(connection, db, queue, room, leaseToken, node,
                    now, limitNow, leaseExpiresAt, includeRetries, start);
            int atOnce = Math.min(jobs.size(), ahead.atOnce());
            int later = limits.rate() == null ? 0 : jobs.size() - atOnce;
            StartWindow window = flow.startWindow();
            if (limits.rate() != null && !jobs.isEmpty()) {
                window = window.plus(limits.rate(), limitNow, atOnce, limitNow.plus(within), later);
                flow.saveWindow(connection, window);
            }
            if (jobs.size() < room) {
                // Fewer jobs were due than the limits allowed: they held nothing back.
                heldBy = HeldBy.NOTHING;
            }
            Instant retryAt = heldBy == HeldBy.RATE_LIMIT ? window.nextRoomAt(limits.rate(), limitNow) : null;
            return new LimitedClaim(jobs, limits, heldBy, retryAt, later == 0 ? Duration.ZERO : within);
        });
    }

    /** How long jobs claimed ahead under {@code rate} may wait: what the worker asks, at most the longest. */
    private static Duration startWithin(ClaimAhead ahead, RateLimit rate) {
        Duration longest = ClaimAhead.longestWait(rate);
        // Rounded up to the window's milliseconds: a wait shorter than one would otherwise claim none ahead.
        Duration asked = Duration.ofMillis((ahead.within().toNanos() + 999_999) / 1_000_000);
        return asked.compareTo(longest) < 0 ? asked : longest;
    }

    private static Optional<Instant> statementTime(Connection connection, Database db) throws SQLException {
        Optional<String> query = db.statementTimeQuery();
        if (query.isEmpty()) {
            return Optional.empty();
        }
        try (PreparedStatement select = connection.prepareStatement(query.get());
             ResultSet row = select.executeQuery()) {
            row.next();
            return Optional.of(db.instant(row, 1));
        }
    }

    /**
     * Claims up to {@code limit} due jobs on a connection in a transaction: they start at {@code startedAt}, and
     * are due if their time is {@code now} or earlier; read from {@code place} where the database allows it
     * ({@link Database#claimsFromAPlace()}), or from the first due job.
     */
    private static List<ClaimedJob> claimRows(Connection connection, Database db, String queue, int limit,
            String leaseToken, String node, Instant now, Instant startedAt, Instant leaseExpiresAt,
            boolean includeRetries, ClaimStart place) throws SQLException {
        ClaimStart start = db.claimsFromAPlace() ? place : null;
        String from = claimFrom(start);
        List<ClaimedRow> claimed = new ArrayList<>();
        if (db.updatesReturningRows()) {
            // A CTE that locks is evaluated exactly once, so the UPDATE takes exactly the rows it locked.
            try (PreparedStatement update = connection.prepareStatement("WITH claimed AS (SELECT j.id"
                    + from + ") UPDATE jobqueue_job u" + CLAIM_SET + " FROM claimed WHERE u.id = claimed.id"
                    + " RETURNING u." + CLAIM_COLUMNS.replace(", ", ", u."))) {
                int next = bindClaimFrom(update, 1, db, queue, now, includeRetries, start, limit);
                bindClaimSet(update, next, db, leaseToken, node, startedAt, leaseExpiresAt);
                readClaimed(update, db, leaseToken, claimed, 0);
            }
            // RETURNING gives the rows in no particular order.
            claimed.sort(CLAIM_ORDER);
            return claimed.stream().map(ClaimedRow::job).toList();
        }
        try (PreparedStatement select = connection.prepareStatement("SELECT " + CLAIM_COLUMNS + from)) {
            bindClaimFrom(select, 1, db, queue, now, includeRetries, start, limit);
            readClaimed(select, db, leaseToken, claimed, 1);
        }
        if (!claimed.isEmpty()) {
            try (PreparedStatement update = connection.prepareStatement("UPDATE jobqueue_job" + CLAIM_SET
                    + " WHERE id IN (" + Database.placeholders(claimed.size()) + ")")) {
                int index = bindClaimSet(update, 1, db, leaseToken, node, startedAt, leaseExpiresAt);
                for (ClaimedRow row : claimed) {
                    update.setString(index++, row.job().id());
                }
                update.executeUpdate();
            }
        }
        return claimed.stream().map(ClaimedRow::job).toList();
    }

    /**
     * Lets PostgreSQL commit the claim without waiting for the disk. A claim lost in a database crash leaves
     * its jobs PENDING, to run again as after any crash; a job's DONE, committed later, flushes the claim first.
     */
    private static void relaxDurability(Connection connection) throws SQLException {
        try (Statement relax = connection.createStatement()) {
            relax.execute("SET LOCAL synchronous_commit = off");
        }
    }

    private static final String CLAIM_COLUMNS =
            "id, queue, payload, attempts, created_at, run_at, group_name, ordering_key, priority, seq, trace_parent,"
                    + " trace_state";
    private static final String CLAIM_SET = " SET state = 'RUNNING', attempts = attempts + 1,"
            + " lease_token = ?, claimed_by = ?, lease_expires_at = ?, started_at = ?";
    /**
     * The pause check takes the queue as a parameter rather than from the row: correlated, PostgreSQL plans it as
     * an anti-join it expects to remove nearly every row, and then sorts the whole queue instead of reading
     * the pending index in order.
     */
    private static final String CLAIM_FROM = """
             FROM jobqueue_job j
            WHERE j.queue = ? AND j.state = 'PENDING' AND j.run_at <= ? AND j.attempts <= ?
                AND NOT EXISTS (SELECT 1 FROM jobqueue_queue q WHERE q.name = ?
                    AND (q.paused = TRUE OR q.paused_until > ?))
                AND (j.ordering_key IS NULL OR NOT EXISTS (
                    SELECT 1 FROM jobqueue_job o WHERE o.queue = j.queue AND o.ordering_key = j.ordering_key
                        AND o.seq < j.seq AND o.state IN ('PENDING', 'RUNNING', 'WAITING')))""";
    /** Equal priority, then a range of due times: the index is read from that point, not from its first entry. */
    private static final String CLAIM_FROM_START = " AND j.priority = ? AND j.run_at >= ?";
    private static final String CLAIM_ORDER_BY =
            " ORDER BY j.priority DESC, j.run_at, j.seq LIMIT ? FOR UPDATE SKIP LOCKED";
    private static final Comparator<ClaimedRow> CLAIM_ORDER = Comparator
            .comparingInt((ClaimedRow row) -> row.job().priority()).reversed()
            .thenComparing(row -> row.job().dueAt()).thenComparingLong(ClaimedRow::seq);

    /** The claim's FROM to LIMIT: a queue's due jobs in claim order, from the first or from {@code start}. */
    private static String claimFrom(ClaimStart start) {
        return CLAIM_FROM + (start == null ? "" : CLAIM_FROM_START) + CLAIM_ORDER_BY;
    }

    /** A claimed job with its place in put order, which orders it among the others of its claim. */
    private record ClaimedRow(ClaimedJob job, long seq) {
    }

    /** Binds {@link #CLAIM_SET}'s parameters from {@code first}; returns the index after them. */
    private static int bindClaimSet(PreparedStatement statement, int first, Database db, String leaseToken,
            String node, Instant startedAt, Instant leaseExpiresAt) throws SQLException {
        statement.setString(first, leaseToken);
        statement.setString(first + 1, node);
        db.bind(statement, first + 2, leaseExpiresAt);
        db.bind(statement, first + 3, startedAt);
        return first + 4;
    }

    /** Binds {@link #claimFrom}'s parameters from {@code first}; returns the index after them. */
    private static int bindClaimFrom(PreparedStatement statement, int first, Database db, String queue,
            Instant now, boolean includeRetries, ClaimStart start, int limit) throws SQLException {
        int index = first;
        statement.setString(index++, queue);
        db.bind(statement, index++, now);
        statement.setInt(index++, includeRetries ? Integer.MAX_VALUE : 0);
        statement.setString(index++, queue);
        db.bind(statement, index++, now);
        if (start != null) {
            statement.setInt(index++, start.priority());
            db.bind(statement, index++, start.dueFrom());
        }
        statement.setInt(index++, limit);
        return index;
    }

    /**
     * Reads the claimed rows; {@code attemptsBefore} is 1 when the attempts column was read before the claim
     * counted this attempt, 0 when it was read after.
     */
    private static void readClaimed(PreparedStatement statement, Database db, String leaseToken,
            List<ClaimedRow> claimed, int attemptsBefore) throws SQLException {
        try (ResultSet row = statement.executeQuery()) {
            while (row.next()) {
                String traceparent = row.getString(11);
                ClaimedJob job = new ClaimedJob(row.getString(1), row.getString(2), row.getString(3),
                        row.getInt(4) + attemptsBefore, db.instant(row, 5), db.instant(row, 6), leaseToken,
                        row.getString(7), row.getString(8), row.getInt(9),
                        traceparent == null ? null : new TraceContext(traceparent, row.getString(12)));
                claimed.add(new ClaimedRow(job, row.getLong(10)));
            }
        }
    }

}
