package dev.jobqueue.internal.store;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The dashboard's reads of jobs: filtered listings a page at a time, counts, and one job's options and
 * dependencies. Listings page by keyset, never by offset, so that a page deep in a million jobs reads as few
 * rows as the first: put order reads the index on {@code seq}; due order reads the index on PENDING jobs'
 * {@code (run_at, seq)} on PostgreSQL, and {@code (state, run_at, seq)} on MariaDB and H2; a dedupe key,
 * ordering key or group reads its own index. None of them reads a payload.
 */
@ApplicationScoped
public class JobBrowser {

    /** How much of a job's last error a listing shows. */
    public static final int ERROR_PREVIEW_CHARS = 300;

    private static final String LISTED = "id, queue, state, attempts, priority, created_at, run_at, finished_at,"
            + " SUBSTRING(last_error, 1, " + ERROR_PREVIEW_CHARS + "), dedupe_key, ordering_key, group_name,"
            + " claimed_by, seq, CASE WHEN progress_attempt = attempts THEN progress END";

    @Inject
    TransactionalJdbc jdbc;

    @Inject
    DependencyLinks links;

    /**
     * One page of the jobs that match, in {@code sort}'s order, after {@code after} (null for the first page).
     *
     * @param size 1 or more
     */
    public JobPage page(JobFilter filter, JobSort sort, JobCursor after, int size) {
        return jdbc.run((connection, db) -> {
            String sql = "SELECT " + LISTED + " FROM jobqueue_job WHERE " + filter.where()
                    + (after == null ? "" : " AND " + after.after(sort, db))
                    + " ORDER BY " + sort.orderBy() + " LIMIT " + (size + 1);
            try (PreparedStatement select = connection.prepareStatement(sql)) {
                int next = filter.bind(select, 1);
                if (after != null) {
                    after.bind(select, next, sort, db);
                }
                List<ListedJob> jobs = new ArrayList<>();
                List<JobCursor> ends = new ArrayList<>();
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        jobs.add(listed(rows, db));
                        ends.add(new JobCursor(rows.getLong(14), db.instant(rows, 7)));
                    }
                }
                if (jobs.size() <= size) {
                    return new JobPage(jobs, Optional.empty());
                }
                return new JobPage(jobs.subList(0, size), Optional.of(ends.get(size - 1)));
            }
        });
    }

    /** How many jobs match. */
    public long count(JobFilter filter) {
        return jdbc.run((connection, db) -> {
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT COUNT(*) FROM jobqueue_job WHERE " + filter.where())) {
                filter.bind(select, 1);
                try (ResultSet rows = select.executeQuery()) {
                    rows.next();
                    return rows.getLong(1);
                }
            }
        });
    }

    /**
     * A job's options and the first {@code linksShown} of its dependencies each way, with how many there are, or
     * empty if there is no such job.
     */
    public Optional<JobExtras> extras(String id, int linksShown) {
        return jdbc.run((connection, db) -> {
            try (PreparedStatement select = connection.prepareStatement("SELECT priority, dedupe_key, ordering_key,"
                    + " group_name, claimed_by, started_at, lease_expires_at FROM jobqueue_job WHERE id = ?")) {
                select.setString(1, id);
                try (ResultSet row = select.executeQuery()) {
                    if (!row.next()) {
                        return Optional.empty();
                    }
                    return Optional.of(new JobExtras(row.getInt(1), row.getString(2), row.getString(3),
                            row.getString(4), row.getString(5), db.instant(row, 6), db.instant(row, 7),
                            links.page(connection, id, DependencyLinks.Direction.WAITS_FOR, null, linksShown),
                            links.page(connection, id, DependencyLinks.Direction.WAITED_BY, null, linksShown)));
                }
            }
        });
    }

    private static ListedJob listed(ResultSet row, Database db) throws SQLException {
        return new ListedJob(row.getString(1), row.getString(2), JobState.valueOf(row.getString(3).trim()),
                row.getInt(4), row.getInt(5), db.instant(row, 6), db.instant(row, 7), db.instant(row, 8),
                row.getString(9), row.getString(10), row.getString(11), row.getString(12), row.getString(13),
                row.getObject(15) == null ? null : row.getDouble(15));
    }
}
