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
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The {@link LeaseStore} on the database: plain JDBC where rows are locked or skipped, JPA to release.
 */
@ApplicationScoped
public class SqlLeaseStore implements LeaseStore {

    @PersistenceContext(unitName = "jobqueue")
    EntityManager em;

    @Inject
    TransactionalJdbc jdbc;

    @Override
    @Transactional(TxType.REQUIRES_NEW)
    public Renewal renewLeases(List<String> leaseTokens, Instant leaseExpiresAt) {
        if (leaseTokens.isEmpty()) {
            return new Renewal(List.of(), List.of());
        }
        return jdbc.run((connection, db) -> {
            String byToken = "SELECT id, lease_token FROM jobqueue_job WHERE lease_token IN ("
                    + Database.placeholders(leaseTokens.size()) + ") AND state = 'RUNNING'";
            List<LeasedJob> renewed = leasedJobs(connection, byToken + " FOR UPDATE SKIP LOCKED", leaseTokens);
            if (!renewed.isEmpty()) {
                try (PreparedStatement renew = connection.prepareStatement("UPDATE jobqueue_job"
                        + " SET lease_expires_at = ? WHERE id IN (" + Database.placeholders(renewed.size()) + ")")) {
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

    @Override
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

    @Override
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

    @Override
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
                + Database.placeholders(ids.size()) + ")")) {
            Database.bindStrings(update, 1, ids);
            update.executeUpdate();
        }
    }

    @Override
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
}
