package dev.jobqueue.internal.store;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The one place that deletes jobs, for every path: an operator's delete of one job or of many, and the purges of
 * finished jobs. In the deleting transaction, the jobs that waited for a deleted job are released, since a job
 * that no longer exists counts as DONE, and a group left with no job loses its row. A job's errors and the
 * dependency rows it owns go with it.
 */
@ApplicationScoped
public class Deletions {

    /** Which jobs among the given ones a deletion may take. */
    public enum Deletable {
        /** Any that is not RUNNING: an operator's delete. */
        NOT_RUNNING("state <> 'RUNNING'"),
        /** FAILED jobs only: a bulk delete of dead letters, and their purge. */
        FAILED("state = 'FAILED'"),
        /** DONE jobs only: retention. */
        DONE("state = 'DONE'");

        private final String condition;

        Deletable(String condition) {
            this.condition = condition;
        }
    }

    @Inject
    TransactionalJdbc jdbc;

    @Inject
    Dependencies dependencies;

    @Inject
    Groups groups;

    /**
     * Deletes those of {@code ids} that are {@code deletable}, in the caller's transaction. They are locked first,
     * so a job that changes state meanwhile is either deleted as it was or left as it became.
     *
     * @return how many it deleted
     */
    public int deleteAmong(List<String> ids, Deletable deletable) {
        if (ids.isEmpty()) {
            return 0;
        }
        List<String> deleted = new ArrayList<>();
        Set<String> touchedGroups = new TreeSet<>();
        jdbc.run((connection, db) -> {
            try (PreparedStatement select = connection.prepareStatement("SELECT id, group_name FROM jobqueue_job"
                    + " WHERE id IN (" + Database.placeholders(ids.size()) + ") AND " + deletable.condition
                    + " ORDER BY id FOR UPDATE")) {
                Database.bindStrings(select, 1, ids);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        deleted.add(rows.getString(1));
                        touchedGroups.add(Objects.requireNonNullElse(rows.getString(2), ""));
                    }
                }
            }
            if (deleted.isEmpty()) {
                return 0;
            }
            try (PreparedStatement delete = connection.prepareStatement("DELETE FROM jobqueue_job WHERE id IN ("
                    + Database.placeholders(deleted.size()) + ")")) {
                Database.bindStrings(delete, 1, deleted);
                return delete.executeUpdate();
            }
        });
        if (deleted.isEmpty()) {
            return 0;
        }
        touchedGroups.remove("");
        dependencies.release(deleted);
        groups.deleteEmpty(touchedGroups);
        return deleted.size();
    }
}
