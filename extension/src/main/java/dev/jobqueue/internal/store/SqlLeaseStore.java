package dev.jobqueue.internal.store;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
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
import java.util.stream.Collectors;

/**
 * The {@link LeaseStore} on the database: plain JDBC where rows are locked or skipped, JPA to release.
 */
@ApplicationScoped
public class SqlLeaseStore implements LeaseStore {

    private static final String SELECT_LEASES = "SELECT id, queue, attempts, lease_token, lease_expires_at"
            + " FROM jobqueue_job WHERE state = 'RUNNING'";

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
                    }).stream().map(HeldLease::rescued).toList();
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
    public List<HeldLease> leasesOf(String node) {
        return jdbc.run((connection, db) -> leases(connection, db, SELECT_LEASES + " AND claimed_by = ?",
                select -> select.setString(1, node)));
    }

    @Override
    @Transactional(TxType.REQUIRES_NEW)
    public UnrenewedLeases takeBackUnrenewed(List<HeldLease> noted) {
        if (noted.isEmpty()) {
            return new UnrenewedLeases(List.of(), 0, List.of());
        }
        List<String> ids = noted.stream().map(HeldLease::id).toList();
        String byId = "id IN (" + Database.placeholders(ids.size()) + ")";
        return jdbc.run((connection, db) -> {
            List<HeldLease> now = lockRunning(connection, db, byId, select -> Database.bindStrings(select, 1, ids));
            // The rows stay locked until this commits, so no renewal lands between this comparison and the update.
            Map<String, HeldLease> before = noted.stream().collect(Collectors.toMap(HeldLease::id, lease -> lease));
            List<HeldLease> unmoved = now.stream().filter(lease -> lease.equals(before.get(lease.id()))).toList();
            int renewed = (int) now.stream().filter(lease -> lease.renewedSince(before.get(lease.id()))).count();
            makePending(connection, unmoved.stream().map(HeldLease::id).toList());
            // A plain read takes no lock and waits for none: it sees the rows the locking read skipped.
            List<HeldLease> locked = new ArrayList<>(leases(connection, db, SELECT_LEASES + " AND " + byId,
                    select -> Database.bindStrings(select, 1, ids)));
            locked.removeAll(now);
            locked.removeIf(lease -> !lease.equals(before.get(lease.id())));
            return new UnrenewedLeases(unmoved.stream().map(HeldLease::rescued).toList(), renewed, locked);
        });
    }

    /** Binds a statement's parameters. */
    @FunctionalInterface
    private interface Parameters {
        void bind(PreparedStatement statement) throws SQLException;
    }

    /** Locks the RUNNING jobs that match {@code condition}, skipping rows others hold locked. */
    private static List<HeldLease> lockRunning(Connection connection, Database db, String condition,
            Parameters parameters) throws SQLException {
        return leases(connection, db, SELECT_LEASES + " AND " + condition + " FOR UPDATE SKIP LOCKED", parameters);
    }

    private static List<HeldLease> leases(Connection connection, Database db, String sql, Parameters parameters)
            throws SQLException {
        List<HeldLease> leases = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement(sql)) {
            parameters.bind(select);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    leases.add(new HeldLease(rows.getString(1), rows.getString(2), rows.getInt(3), rows.getString(4),
                            db.instant(rows, 5)));
                }
            }
        }
        return leases;
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
            released += jdbc.update("""
                    UPDATE jobqueue_job SET state = 'PENDING', attempts = attempts - 1,
                        lease_token = NULL, lease_expires_at = NULL
                    WHERE id = ? AND lease_token = ? AND state = 'RUNNING'""", job.id(), job.leaseToken());
        }
        return released;
    }

    @Override
    @Transactional(TxType.REQUIRES_NEW)
    public int releaseClaim(String leaseToken) {
        return jdbc.update("""
                UPDATE jobqueue_job SET state = 'PENDING', attempts = attempts - 1,
                    lease_token = NULL, lease_expires_at = NULL
                WHERE lease_token = ? AND state = 'RUNNING'""", leaseToken);
    }
}
