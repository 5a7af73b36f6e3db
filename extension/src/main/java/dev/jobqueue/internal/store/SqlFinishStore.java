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
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The {@link FinishStore} on the database. Finishing releases or fails the jobs that wait for the job, and tells
 * when a group has finished.
 */
@ApplicationScoped
public class SqlFinishStore implements FinishStore {

    @Inject
    TransactionalJdbc jdbc;

    @Inject
    Dependencies dependencies;

    @Inject
    Groups groups;

    @Inject
    ErrorHistory errorHistory;

    @Override
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

    /**
     * Marks the rows {@code where} matches DONE at {@code now}, or deletes them when DONE jobs are not retained.
     * A DONE job has no last error: the errors of its failed attempts stay in its error history.
     */
    private static int finish(Connection connection, Database db, boolean retain, Instant now, String where,
            List<String> whereValues) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(finishStatement(retain, where))) {
            int index = bindFinish(statement, 1, db, retain, now);
            for (String value : whereValues) {
                statement.setString(index++, value);
            }
            return statement.executeUpdate();
        }
    }

    private static String finishStatement(boolean retain, String where) {
        return retain
                ? "UPDATE jobqueue_job SET state = 'DONE', finished_at = ?, lease_token = NULL, lease_expires_at = NULL,"
                        + " last_error = NULL" + where
                : "DELETE FROM jobqueue_job" + where;
    }

    /** Binds {@link #finishStatement}'s parameters before its WHERE clause; returns the index after them. */
    private static int bindFinish(PreparedStatement statement, int first, Database db, boolean retain, Instant now)
            throws SQLException {
        if (retain) {
            db.bind(statement, first, now);
            return first + 1;
        }
        return first;
    }

    @Override
    @Transactional(TxType.REQUIRES_NEW)
    public List<ClaimedJob> completeAll(List<ClaimedJob> jobs, Instant now, boolean retain) {
        Map<String, List<ClaimedJob>> byLease = jobs.stream().collect(
                Collectors.groupingBy(ClaimedJob::leaseToken, LinkedHashMap::new, Collectors.toList()));
        return jdbc.run((connection, db) -> {
            List<ClaimedJob> left = new ArrayList<>();
            for (Map.Entry<String, List<ClaimedJob>> claim : byLease.entrySet()) {
                Set<String> finished = db.updatesReturningRows()
                        ? finishSimpleReturning(connection, db, retain, now, claim.getKey(), claim.getValue())
                        : finishSimpleLocked(connection, db, retain, now, claim.getKey(), claim.getValue());
                claim.getValue().stream().filter(job -> !finished.contains(job.id())).forEach(left::add);
            }
            return left;
        });
    }

    /** The jobs of one claim that this node still holds and that no job waits for. */
    private static String simpleJobs(int count) {
        return " WHERE lease_token = ? AND state = 'RUNNING' AND has_dependents = FALSE AND id IN ("
                + Database.placeholders(count) + ")";
    }

    /**
     * Finishes the {@link #simpleJobs simple jobs} of one claim in one statement that returns their ids; returns
     * them.
     */
    private static Set<String> finishSimpleReturning(Connection connection, Database db, boolean retain, Instant now,
            String leaseToken, List<ClaimedJob> jobs) throws SQLException {
        Set<String> finished = new LinkedHashSet<>();
        try (PreparedStatement statement = connection.prepareStatement(
                finishStatement(retain, simpleJobs(jobs.size())) + " RETURNING id")) {
            int index = bindFinish(statement, 1, db, retain, now);
            bindClaimJobs(statement, index, leaseToken, jobs);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    finished.add(rows.getString(1));
                }
            }
        }
        return finished;
    }

    /**
     * Locks the {@link #simpleJobs simple jobs} of one claim, then finishes them, for databases whose UPDATE
     * returns no rows; returns their ids.
     */
    private static Set<String> finishSimpleLocked(Connection connection, Database db, boolean retain, Instant now,
            String leaseToken, List<ClaimedJob> jobs) throws SQLException {
        Set<String> simple = new LinkedHashSet<>();
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT id FROM jobqueue_job" + simpleJobs(jobs.size()) + " FOR UPDATE")) {
            bindClaimJobs(select, 1, leaseToken, jobs);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    simple.add(rows.getString(1));
                }
            }
        }
        if (!simple.isEmpty()) {
            List<String> values = new ArrayList<>();
            values.add(leaseToken);
            values.addAll(simple);
            finish(connection, db, retain, now, " WHERE lease_token = ? AND state = 'RUNNING' AND id IN ("
                    + Database.placeholders(simple.size()) + ")", values);
        }
        return simple;
    }

    private static void bindClaimJobs(PreparedStatement statement, int first, String leaseToken,
            List<ClaimedJob> jobs) throws SQLException {
        statement.setString(first, leaseToken);
        for (int i = 0; i < jobs.size(); i++) {
            statement.setString(first + 1 + i, jobs.get(i).id());
        }
    }

    private Finish afterFinish(ClaimedJob job, Set<String> releasedQueues, List<FailedDependent> failedDependents) {
        return groups.afterFinish(job.group() == null ? List.of() : List.of(job.group()), releasedQueues,
                failedDependents);
    }

    @Override
    @Transactional(TxType.REQUIRES_NEW)
    public boolean retryLater(String id, String leaseToken, int attempt, Instant now, Instant runAt, String error) {
        return recordFailure(id, leaseToken, attempt, now, error, JobState.PENDING, "run_at", runAt);
    }

    @Override
    @Transactional(TxType.REQUIRES_NEW)
    public Optional<Finish> fail(ClaimedJob job, Instant now, String error) {
        if (!recordFailure(job.id(), job.leaseToken(), job.attempt(), now, error, JobState.FAILED, "finished_at",
                now)) {
            return Optional.empty();
        }
        return Optional.of(afterFinish(job, Set.of(), dependencies.failDependents(job.id(), now)));
    }

    @Override
    @Transactional(TxType.REQUIRES_NEW)
    public boolean backOff(ClaimedJob job, Instant runAt, Instant now) {
        return jdbc.run((connection, db) -> {
            try (PreparedStatement postpone = connection.prepareStatement("UPDATE jobqueue_job SET state = 'PENDING',"
                    + " attempts = attempts - 1, run_at = ?, lease_token = NULL, lease_expires_at = NULL"
                    + " WHERE id = ? AND lease_token = ? AND state = 'RUNNING'")) {
                db.bind(postpone, 1, runAt);
                postpone.setString(2, job.id());
                postpone.setString(3, job.leaseToken());
                if (postpone.executeUpdate() != 1) {
                    return false;
                }
            }
            QueueFlow.pauseUntil(connection, db, job.queue(), runAt, now);
            return true;
        });
    }

    /** Ends a failed attempt in {@code next} state, fenced by the lease, and adds its error to the history. */
    private boolean recordFailure(String id, String leaseToken, int attempt, Instant now, String error,
            JobState next, String timeColumn, Instant time) {
        boolean updated = jdbc.update("UPDATE jobqueue_job SET state = ?, " + timeColumn + " = ?, last_error = ?,"
                + " lease_token = NULL, lease_expires_at = NULL WHERE id = ? AND lease_token = ? AND state = 'RUNNING'",
                next, time, error, id, leaseToken) == 1;
        if (updated) {
            errorHistory.add(id, attempt, now, error);
        }
        return updated;
    }

}
