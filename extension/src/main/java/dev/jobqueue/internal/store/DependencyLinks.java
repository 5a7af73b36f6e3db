package dev.jobqueue.internal.store;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Pages of a job's dependencies, either way, counted and read by keyset on the linked job's id: a job that 100,000
 * jobs wait for costs a page of them and a count of index entries, not a list of all of them.
 */
@ApplicationScoped
public class DependencyLinks {

    /** Which way a job's dependencies go. */
    public enum Direction {
        /** The jobs it waits for. */
        WAITS_FOR("d.depends_on", "d.job_id"),
        /** The jobs that wait for it. */
        WAITED_BY("d.job_id", "d.depends_on");

        private final String linked;
        private final String known;

        Direction(String linked, String known) {
            this.linked = linked;
            this.known = known;
        }
    }

    @Inject
    TransactionalJdbc jdbc;

    /**
     * A page of the jobs linked to {@code id} in {@code direction}, after the job {@code after} (null for the
     * first page).
     */
    public JobLinks page(String id, Direction direction, String after, int size) {
        return jdbc.run((connection, db) -> page(connection, id, direction, after, size));
    }

    /** {@link #page} on a connection the caller holds. */
    JobLinks page(Connection connection, String id, Direction direction, String after, int size)
            throws SQLException {
        List<JobLink> links = links(connection, id, direction, after, size + 1);
        boolean more = links.size() > size;
        List<JobLink> page = List.copyOf(more ? links.subList(0, size) : links);
        return new JobLinks(count(connection, id, direction), page, more ? page.get(size - 1).id() : null);
    }

    private static long count(Connection connection, String id, Direction direction) throws SQLException {
        try (PreparedStatement count = connection.prepareStatement("SELECT COUNT(*) FROM jobqueue_job_dependency d"
                + " WHERE " + direction.known + " = ?")) {
            count.setString(1, id);
            try (ResultSet row = count.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }

    /** The linked jobs in id order; a deleted one has no queue and no state. */
    private static List<JobLink> links(Connection connection, String id, Direction direction, String after,
            int limit) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT " + direction.linked + ", j.queue, j.state"
                + " FROM jobqueue_job_dependency d LEFT JOIN jobqueue_job j ON j.id = " + direction.linked
                + " WHERE " + direction.known + " = ?" + (after == null ? "" : " AND " + direction.linked + " > ?")
                + " ORDER BY " + direction.linked + " LIMIT " + limit)) {
            select.setString(1, id);
            if (after != null) {
                select.setString(2, after);
            }
            List<JobLink> links = new ArrayList<>();
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    String state = rows.getString(3);
                    links.add(new JobLink(rows.getString(1), rows.getString(2),
                            state == null ? null : JobState.valueOf(state.trim())));
                }
            }
            return links;
        }
    }
}
