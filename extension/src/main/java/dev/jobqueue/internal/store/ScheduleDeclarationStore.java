package dev.jobqueue.internal.store;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The SQL of the nodes' {@code @Recurring} declarations, in the caller's JTA transaction. A declaration's row is
 * kept after its schedule is deleted, so that a declaration first made long ago never counts as new.
 */
@ApplicationScoped
public class ScheduleDeclarationStore {

    @Inject
    TransactionalJdbc jdbc;

    /**
     * Records that a running node declares {@code fingerprint} for the schedule now: first declared now, if no
     * node declared it before. Two nodes recording a new declaration at once may fail one of them on the key.
     */
    public void declare(String schedule, String fingerprint, Instant now) {
        jdbc.run((connection, database) -> {
            try (PreparedStatement update = connection.prepareStatement("UPDATE jobqueue_schedule_declaration"
                    + " SET seen_at = ? WHERE schedule = ? AND fingerprint = ?")) {
                database.bind(update, 1, now);
                update.setString(2, schedule);
                update.setString(3, fingerprint);
                if (update.executeUpdate() == 1) {
                    return 1;
                }
            }
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO jobqueue_schedule_declaration"
                    + " (schedule, fingerprint, declared_at, seen_at) VALUES (?, ?, ?, ?)")) {
                insert.setString(1, schedule);
                insert.setString(2, fingerprint);
                database.bind(insert, 3, now);
                database.bind(insert, 4, now);
                return insert.executeUpdate();
            }
        });
    }

    /** Every declaration ever recorded for the schedule. */
    public List<StoredDeclaration> of(String schedule) {
        return jdbc.run((connection, database) -> {
            try (PreparedStatement select = connection.prepareStatement("SELECT fingerprint, declared_at, seen_at"
                    + " FROM jobqueue_schedule_declaration WHERE schedule = ?")) {
                select.setString(1, schedule);
                List<StoredDeclaration> declarations = new ArrayList<>();
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        declarations.add(new StoredDeclaration(rows.getString(1), database.instant(rows, 2),
                                database.instant(rows, 3)));
                    }
                }
                return declarations;
            }
        });
    }
}
