package dev.jobqueue.internal.store;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Which jobs a listing, a count or a bulk action takes: every field that is not null must match exactly. The
 * state is written into the SQL as a literal, so that PostgreSQL's plan can read that state's partial index.
 *
 * @param queue       the queue
 * @param state       the state
 * @param id          the job's id
 * @param dedupeKey   its dedupe key
 * @param orderingKey its ordering key
 * @param group       its group
 */
public record JobFilter(String queue, JobState state, String id, String dedupeKey, String orderingKey,
        String group) {

    /** The same filter for FAILED jobs only. */
    public JobFilter failed() {
        return new JobFilter(queue, JobState.FAILED, id, dedupeKey, orderingKey, group);
    }

    /** The conditions, joined by AND, for the parameters {@link #bind} binds; {@code TRUE} when none. */
    String where() {
        List<String> conditions = new ArrayList<>();
        if (state != null) {
            conditions.add("state = '" + state.name() + "'");
        }
        for (String[] column : columns()) {
            if (column[1] != null) {
                conditions.add(column[0] + " = ?");
            }
        }
        return conditions.isEmpty() ? "1 = 1" : String.join(" AND ", conditions);
    }

    /** Binds the filter's values from parameter {@code first} on; returns the next parameter's index. */
    int bind(PreparedStatement statement, int first) throws SQLException {
        int index = first;
        for (String[] column : columns()) {
            if (column[1] != null) {
                statement.setString(index++, column[1]);
            }
        }
        return index;
    }

    private String[][] columns() {
        return new String[][] {{"queue", queue}, {"id", id}, {"dedupe_key", dedupeKey},
            {"ordering_key", orderingKey}, {"group_name", group}};
    }
}
