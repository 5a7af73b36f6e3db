package dev.jobqueue.internal.store;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Every read and write of job rows. Each write after the claim is fenced by the lease token, so a
 * worker that lost its lease cannot change a job another node has taken over.
 */
@ApplicationScoped
public class JobStore {

    @PersistenceContext(unitName = "jobqueue")
    EntityManager em;

    @Inject
    TransactionalJdbc jdbc;

    @Inject
    Dependencies dependencies;

    @Inject
    Groups groups;

    @Inject
    ErrorHistory errorHistory;

    /**
     * Claims up to {@code limit} due jobs of {@code queue}, highest priority first, then oldest first, skipping
     * rows other claimers hold locked, and marks them RUNNING under {@code leaseToken}, held by {@code node},
     * counting the attempt.
     * A job with an ordering key is claimed only when no older job of its key is unfinished. It reads through
     * the partial index on PENDING rows (the state is a literal so that a generic plan can use it). Commits
     * before it returns. Plain JDBC, one statement on PostgreSQL and two elsewhere, whatever the batch size.
     *
     * @param includeRetries false to claim only first attempts, while the queue's consumer is failing
     */
    @Transactional(TxType.REQUIRES_NEW)
    public List<ClaimedJob> claim(String queue, int limit, String leaseToken, String node, Instant now,
            Instant leaseExpiresAt, boolean includeRetries) {
        return jdbc.run((connection, db) -> {
            List<ClaimedRow> claimed = new ArrayList<>();
            if (db.updatesReturningRows()) {
                relaxDurability(connection);
                // A CTE that locks is evaluated exactly once, so the UPDATE takes exactly the rows it locked.
                try (PreparedStatement update = connection.prepareStatement("WITH claimed AS (SELECT j.id"
                        + CLAIM_FROM + ") UPDATE jobqueue_job u" + CLAIM_SET + " FROM claimed WHERE u.id = claimed.id"
                        + " RETURNING u." + CLAIM_COLUMNS.replace(", ", ", u."))) {
                    bindClaimFrom(update, 1, db, queue, now, includeRetries, limit);
                    bindClaimSet(update, 6, db, leaseToken, node, now, leaseExpiresAt);
                    readClaimed(update, db, leaseToken, claimed, 0);
                }
                // RETURNING gives the rows in no particular order.
                claimed.sort(CLAIM_ORDER);
                return claimed.stream().map(ClaimedRow::job).toList();
            }
            try (PreparedStatement select = connection.prepareStatement("SELECT " + CLAIM_COLUMNS + CLAIM_FROM)) {
                bindClaimFrom(select, 1, db, queue, now, includeRetries, limit);
                readClaimed(select, db, leaseToken, claimed, 1);
            }
            if (!claimed.isEmpty()) {
                try (PreparedStatement update = connection.prepareStatement("UPDATE jobqueue_job" + CLAIM_SET
                        + " WHERE id IN (" + EnqueueStore.placeholders(claimed.size()) + ")")) {
                    int index = bindClaimSet(update, 1, db, leaseToken, node, now, leaseExpiresAt);
                    for (ClaimedRow row : claimed) {
                        update.setString(index++, row.job().id());
                    }
                    update.executeUpdate();
                }
            }
            return claimed.stream().map(ClaimedRow::job).toList();
        });
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
            "id, queue, payload, attempts, created_at, run_at, group_name, ordering_key, priority, seq";
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
                AND NOT EXISTS (SELECT 1 FROM jobqueue_queue q WHERE q.name = ? AND q.paused = TRUE)
                AND (j.ordering_key IS NULL OR NOT EXISTS (
                    SELECT 1 FROM jobqueue_job o WHERE o.queue = j.queue AND o.ordering_key = j.ordering_key
                        AND o.seq < j.seq AND o.state IN ('PENDING', 'RUNNING', 'WAITING')))
            ORDER BY j.priority DESC, j.run_at, j.seq
            LIMIT ? FOR UPDATE SKIP LOCKED""";
    private static final Comparator<ClaimedRow> CLAIM_ORDER = Comparator.comparingInt(ClaimedRow::priority)
            .reversed().thenComparing(row -> row.job().dueAt()).thenComparingLong(ClaimedRow::seq);

    /** A claimed job with what orders it among the others of its claim. */
    private record ClaimedRow(ClaimedJob job, int priority, long seq) {
    }

    /** Binds {@link #CLAIM_SET}'s parameters from {@code first}; returns the index after them. */
    private static int bindClaimSet(PreparedStatement statement, int first, Database db, String leaseToken,
            String node, Instant now, Instant leaseExpiresAt) throws SQLException {
        statement.setString(first, leaseToken);
        statement.setString(first + 1, node);
        db.bind(statement, first + 2, leaseExpiresAt);
        db.bind(statement, first + 3, now);
        return first + 4;
    }

    private static void bindClaimFrom(PreparedStatement statement, int first, Database db, String queue,
            Instant now, boolean includeRetries, int limit) throws SQLException {
        statement.setString(first, queue);
        db.bind(statement, first + 1, now);
        statement.setInt(first + 2, includeRetries ? Integer.MAX_VALUE : 0);
        statement.setString(first + 3, queue);
        statement.setInt(first + 4, limit);
    }

    /**
     * Reads the claimed rows; {@code attemptsBefore} is 1 when the attempts column was read before the claim
     * counted this attempt, 0 when it was read after.
     */
    private static void readClaimed(PreparedStatement statement, Database db, String leaseToken,
            List<ClaimedRow> claimed, int attemptsBefore) throws SQLException {
        try (ResultSet row = statement.executeQuery()) {
            while (row.next()) {
                ClaimedJob job = new ClaimedJob(row.getString(1), row.getString(2), row.getString(3),
                        row.getInt(4) + attemptsBefore, db.instant(row, 5), db.instant(row, 6), leaseToken,
                        row.getString(7), row.getString(8));
                claimed.add(new ClaimedRow(job, row.getInt(9), row.getLong(10)));
            }
        }
    }

    /**
     * Marks the job DONE, or deletes it when DONE jobs are not retained, in the caller's transaction or a new
     * one, and releases the jobs that wait for it. Empty if this worker no longer holds the lease.
     */
    @Transactional(TxType.REQUIRED)
    public Optional<Finish> complete(ClaimedJob job, Instant now, boolean retain) {
        if (finishDone(job, now, retain, true)) {
            return Optional.of(afterFinish(job, Set.of(), List.of()));
        }
        if (!finishDone(job, now, retain, false)) {
            return Optional.empty();
        }
        return Optional.of(afterFinish(job, dependencies.release(job.id()), List.of()));
    }

    /**
     * Ends the job DONE. The first try matches only a job that no other job waits for, which is nearly every
     * job, so that the common case costs one statement. Plain JDBC: this runs once per job.
     */
    private boolean finishDone(ClaimedJob job, Instant now, boolean retain, boolean withoutDependents) {
        String fence = " WHERE id = ? AND lease_token = ? AND state = 'RUNNING'"
                + (withoutDependents ? " AND has_dependents = FALSE" : "");
        return jdbc.run((connection, db) ->
                finish(connection, db, retain, now, fence, List.of(job.id(), job.leaseToken())) == 1);
    }

    /** Marks the rows {@code where} matches DONE at {@code now}, or deletes them when DONE jobs are not retained. */
    private static int finish(Connection connection, Database db, boolean retain, Instant now, String where,
            List<String> whereValues) throws SQLException {
        String sql = retain
                ? "UPDATE jobqueue_job SET state = 'DONE', finished_at = ?, lease_token = NULL, lease_expires_at = NULL"
                        + where
                : "DELETE FROM jobqueue_job" + where;
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            int index = 1;
            if (retain) {
                db.bind(statement, index++, now);
            }
            for (String value : whereValues) {
                statement.setString(index++, value);
            }
            return statement.executeUpdate();
        }
    }

    /**
     * Marks many jobs DONE, or deletes them when DONE jobs are not retained, in one new transaction: a statement
     * per claim (lease token) rather than a transaction per job. Jobs that others wait for are left to
     * {@link #complete}, which releases them; so are jobs whose lease this node lost, which it reports.
     *
     * @return the jobs not finished here, for {@link #complete} one by one
     */
    @Transactional(TxType.REQUIRES_NEW)
    public List<ClaimedJob> completeAll(List<ClaimedJob> jobs, Instant now, boolean retain) {
        Map<String, List<ClaimedJob>> byLease = jobs.stream().collect(
                Collectors.groupingBy(ClaimedJob::leaseToken, LinkedHashMap::new, Collectors.toList()));
        return jdbc.run((connection, db) -> {
            List<ClaimedJob> left = new ArrayList<>();
            for (Map.Entry<String, List<ClaimedJob>> claim : byLease.entrySet()) {
                Set<String> simple = lockSimple(connection, claim.getKey(), claim.getValue());
                claim.getValue().stream().filter(job -> !simple.contains(job.id())).forEach(left::add);
                if (simple.isEmpty()) {
                    continue;
                }
                String where = " WHERE lease_token = ? AND state = 'RUNNING' AND id IN ("
                        + EnqueueStore.placeholders(simple.size()) + ")";
                List<String> values = new ArrayList<>();
                values.add(claim.getKey());
                values.addAll(simple);
                finish(connection, db, retain, now, where, values);
            }
            return left;
        });
    }

    /** Locks the jobs of one claim that this node still holds and that no job waits for; returns their ids. */
    private static Set<String> lockSimple(Connection connection, String leaseToken, List<ClaimedJob> jobs)
            throws SQLException {
        Set<String> simple = new LinkedHashSet<>();
        try (PreparedStatement select = connection.prepareStatement("SELECT id FROM jobqueue_job"
                + " WHERE lease_token = ? AND state = 'RUNNING' AND has_dependents = FALSE AND id IN ("
                + EnqueueStore.placeholders(jobs.size()) + ") FOR UPDATE")) {
            select.setString(1, leaseToken);
            for (int i = 0; i < jobs.size(); i++) {
                select.setString(i + 2, jobs.get(i).id());
            }
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    simple.add(rows.getString(1));
                }
            }
        }
        return simple;
    }

    private Finish afterFinish(ClaimedJob job, Set<String> releasedQueues, List<FailedDependent> failedDependents) {
        Set<String> touched = new TreeSet<>();
        if (job.group() != null) {
            touched.add(job.group());
        }
        failedDependents.stream().map(FailedDependent::group).filter(Objects::nonNull).forEach(touched::add);
        if (releasedQueues.isEmpty() && failedDependents.isEmpty() && touched.isEmpty()) {
            return Finish.NOTHING;
        }
        Map<String, Map<JobState, Long>> finished = new TreeMap<>();
        touched.forEach(group -> groups.finishedCounts(group).ifPresent(counts -> finished.put(group, counts)));
        return new Finish(releasedQueues, failedDependents, finished);
    }

    /** Makes the job PENDING again at {@code runAt}, keeping the error; false if the lease was lost. */
    @Transactional(TxType.REQUIRES_NEW)
    public boolean retryLater(String id, String leaseToken, int attempt, Instant now, Instant runAt, String error) {
        return recordFailure(id, leaseToken, attempt, now, error, JobState.PENDING, "runAt", runAt);
    }

    /**
     * Gives the job up: it becomes FAILED and keeps the error, and so do the jobs that wait for it. Empty if the
     * lease was lost.
     */
    @Transactional(TxType.REQUIRES_NEW)
    public Optional<Finish> fail(ClaimedJob job, Instant now, String error) {
        if (!recordFailure(job.id(), job.leaseToken(), job.attempt(), now, error, JobState.FAILED, "finishedAt",
                now)) {
            return Optional.empty();
        }
        return Optional.of(afterFinish(job, Set.of(), dependencies.failDependents(job.id(), now)));
    }

    /** Ends a failed attempt in {@code next} state, fenced by the lease, and adds its error to the history. */
    private boolean recordFailure(String id, String leaseToken, int attempt, Instant now, String error,
            JobState next, String timeField, Instant time) {
        boolean updated = em.createQuery("UPDATE JobqueueJob j SET j.state = :next, j." + timeField + " = :time,"
                + " j.lastError = :error, j.leaseToken = NULL, j.leaseExpiresAt = NULL"
                + " WHERE j.id = :id AND j.leaseToken = :token AND j.state = :running")
                .setParameter("next", next)
                .setParameter("time", time)
                .setParameter("error", error)
                .setParameter("id", id)
                .setParameter("token", leaseToken)
                .setParameter("running", JobState.RUNNING)
                .executeUpdate() == 1;
        if (updated) {
            errorHistory.add(id, attempt, now, error);
        }
        return updated;
    }

    /**
     * Extends the leases of these attempts that are still RUNNING. It never waits for a row: waiting could
     * deadlock on MariaDB, whose locks are taken index by index: this statement finds rows through the
     * lease-token index first, a job's finish locks its row first, and each would need the other's lock. The
     * attempts whose rows another transaction holds locked (a finish, or a put of a job that waits for them) are
     * returned apart, for {@link #renewLockedLease}.
     */
    @Transactional(TxType.REQUIRES_NEW)
    public Renewal renewLeases(List<String> leaseTokens, Instant leaseExpiresAt) {
        if (leaseTokens.isEmpty()) {
            return new Renewal(List.of(), List.of());
        }
        return jdbc.run((connection, db) -> {
            String byToken = "SELECT id, lease_token FROM jobqueue_job WHERE lease_token IN ("
                    + EnqueueStore.placeholders(leaseTokens.size()) + ") AND state = 'RUNNING'";
            List<LeasedJob> renewed = leasedJobs(connection, byToken + " FOR UPDATE SKIP LOCKED", leaseTokens);
            if (!renewed.isEmpty()) {
                try (PreparedStatement renew = connection.prepareStatement("UPDATE jobqueue_job"
                        + " SET lease_expires_at = ? WHERE id IN (" + EnqueueStore.placeholders(renewed.size()) + ")")) {
                    db.bind(renew, 1, leaseExpiresAt);
                    for (int i = 0; i < renewed.size(); i++) {
                        renew.setString(i + 2, renewed.get(i).id());
                    }
                    renew.executeUpdate();
                }
            }
            // A plain read takes no lock and waits for none: it sees the rows the locking read skipped.
            List<LeasedJob> locked = new ArrayList<>(leasedJobs(connection, byToken, leaseTokens));
            locked.removeAll(renewed);
            return new Renewal(renewed, locked);
        });
    }

    /**
     * What {@link #renewLeases} did.
     *
     * @param renewed the attempts whose leases it extended
     * @param locked  the attempts it skipped because another transaction holds their rows
     */
    public record Renewal(List<LeasedJob> renewed, List<LeasedJob> locked) {
    }

    private static List<LeasedJob> leasedJobs(Connection connection, String sql, List<String> parameters)
            throws SQLException {
        List<LeasedJob> jobs = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.size(); i++) {
                select.setString(i + 1, parameters.get(i));
            }
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    jobs.add(new LeasedJob(rows.getString(1), rows.getString(2)));
                }
            }
        }
        return jobs;
    }

    /**
     * Extends one attempt's lease, waiting for as long as another transaction holds its row: a put of a job that
     * waits for this one locks the row until the put commits. The row is locked first, found by its primary key
     * so that this cannot deadlock with the attempt's own finish, and the new expiry is taken only once it is
     * locked, so a long wait does not shorten the lease. While this waits no other node can take the lease
     * back, because rescue skips locked rows, and once the row is free this waiter has it first.
     *
     * @param leaseExpiresAt the new expiry, asked for once the row is locked
     * @return the new expiry, or empty if the attempt no longer holds its lease
     * @throws LockWaitTimeout if the database gave up waiting (H2 waits at most its {@code LOCK_TIMEOUT})
     */
    @Transactional(TxType.REQUIRES_NEW)
    public Optional<Instant> renewLockedLease(LeasedJob job, Supplier<Instant> leaseExpiresAt) {
        return jdbc.run((connection, db) -> {
            db.waitForRowLocks(connection);
            try (PreparedStatement lock = connection.prepareStatement(db.waitingForRowLock("SELECT id FROM"
                    + " jobqueue_job WHERE id = ? AND lease_token = ? AND state = 'RUNNING' FOR UPDATE"))) {
                lock.setString(1, job.id());
                lock.setString(2, job.leaseToken());
                try (ResultSet row = lock.executeQuery()) {
                    if (!row.next()) {
                        return Optional.empty();
                    }
                }
            } catch (SQLException e) {
                if (db.isLockWaitTimeout(e)) {
                    throw new LockWaitTimeout("jobqueue: job " + job.id() + " stayed locked", e);
                }
                throw e;
            }
            Instant until = leaseExpiresAt.get();
            try (PreparedStatement renew = connection.prepareStatement(
                    "UPDATE jobqueue_job SET lease_expires_at = ? WHERE id = ?")) {
                db.bind(renew, 1, until);
                renew.setString(2, job.id());
                renew.executeUpdate();
            }
            return Optional.of(until);
        });
    }

    /**
     * Makes RUNNING jobs whose lease expired before {@code now}, on the database's clock, PENDING again, so
     * any node can claim them: their node died or lost contact. A job is taken back only when it is seen
     * expired twice, a round apart, with the same expiry, and not locked either time: a lease that expired while
     * another transaction held the row (a put of a job that waits for it) gets a round in which its node can
     * renew it, which that node does the moment the row is free. Takes at most {@code limit} per call, oldest
     * expiry first, and skips rows another node holds. The job keeps its due time, and so its place in line.
     * Payloads are not read.
     *
     * @param seenBefore the jobs the last call saw expired, with their expiry ({@link ExpiredLeases#seen()})
     */
    @Transactional(TxType.REQUIRES_NEW)
    public ExpiredLeases takeBackExpiredLeases(Instant now, int limit, Map<String, Instant> seenBefore) {
        return jdbc.run((connection, db) -> {
            List<RescuedJob> expired = lockRunning(connection, db,
                    "lease_expires_at < ? ORDER BY lease_expires_at LIMIT ?", select -> {
                        db.bind(select, 1, now);
                        select.setInt(2, limit);
                    });
            List<RescuedJob> confirmed = expired.stream()
                    .filter(job -> job.leaseExpiredAt().equals(seenBefore.get(job.id()))).toList();
            makePending(connection, confirmed.stream().map(RescuedJob::id).toList());
            Map<String, Instant> seen = new HashMap<>();
            expired.stream().filter(job -> !confirmed.contains(job))
                    .forEach(job -> seen.put(job.id(), job.leaseExpiredAt()));
            return new ExpiredLeases(confirmed, seen);
        });
    }

    /**
     * What {@link #takeBackExpiredLeases} did.
     *
     * @param rescued the jobs it made PENDING
     * @param seen    the jobs it saw expired for the first time, to take back next time if nothing changes
     */
    public record ExpiredLeases(List<RescuedJob> rescued, Map<String, Instant> seen) {
    }

    /**
     * At start-up: makes PENDING again the jobs an earlier run of this node held, which died with it (a kill,
     * a crash, a power cut), rather than waiting for their leases to expire. Node names are unique among
     * running nodes, so no live node holds these.
     */
    @Transactional(TxType.REQUIRES_NEW)
    public List<RescuedJob> rescueLeasesOf(String node) {
        return jdbc.run((connection, db) -> {
            List<RescuedJob> held = lockRunning(connection, db, "claimed_by = ?", select -> select.setString(1, node));
            makePending(connection, held.stream().map(RescuedJob::id).toList());
            return held;
        });
    }

    /** Binds a statement's parameters. */
    @FunctionalInterface
    private interface Parameters {
        void bind(PreparedStatement statement) throws SQLException;
    }

    /** Locks the RUNNING jobs that match {@code condition}, skipping rows others hold locked. */
    private static List<RescuedJob> lockRunning(Connection connection, Database db, String condition,
            Parameters parameters) throws SQLException {
        List<RescuedJob> locked = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement("SELECT id, queue, attempts, lease_expires_at"
                + " FROM jobqueue_job WHERE state = 'RUNNING' AND " + condition + " FOR UPDATE SKIP LOCKED")) {
            parameters.bind(select);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    locked.add(new RescuedJob(rows.getString(1), rows.getString(2), rows.getInt(3),
                            db.instant(rows, 4)));
                }
            }
        }
        return locked;
    }

    private static void makePending(Connection connection, List<String> ids) throws SQLException {
        if (ids.isEmpty()) {
            return;
        }
        try (PreparedStatement update = connection.prepareStatement("UPDATE jobqueue_job SET state = 'PENDING',"
                + " lease_token = NULL, lease_expires_at = NULL WHERE state = 'RUNNING' AND id IN ("
                + EnqueueStore.placeholders(ids.size()) + ")")) {
            for (int i = 0; i < ids.size(); i++) {
                update.setString(i + 1, ids.get(i));
            }
            update.executeUpdate();
        }
    }

    /**
     * Hands back jobs this node claimed but did not start or finish: at shutdown, and a claimed job whose
     * lease ran out before a runner took it. The attempt is not counted, because the job never failed, and the
     * job keeps its due time, and so its place in line. Each job is matched by id and its lease token.
     */
    @Transactional(TxType.REQUIRES_NEW)
    public int release(Collection<ClaimedJob> jobs) {
        int released = 0;
        for (ClaimedJob job : jobs) {
            released += em.createQuery("""
                    UPDATE JobqueueJob j SET j.state = :pending, j.attempts = j.attempts - 1,
                        j.leaseToken = NULL, j.leaseExpiresAt = NULL
                    WHERE j.id = :id AND j.leaseToken = :token AND j.state = :running""")
                    .setParameter("pending", JobState.PENDING)
                    .setParameter("id", job.id())
                    .setParameter("token", job.leaseToken())
                    .setParameter("running", JobState.RUNNING)
                    .executeUpdate();
        }
        return released;
    }

    /** Reads one job, or empty if there is no such row. */
    @Transactional(TxType.REQUIRES_NEW)
    public Optional<JobRow> find(String id) {
        return Optional.ofNullable(em.find(JobRow.class, id));
    }
}
