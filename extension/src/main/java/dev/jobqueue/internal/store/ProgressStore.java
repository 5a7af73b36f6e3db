package dev.jobqueue.internal.store;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.sql.PreparedStatement;
import java.time.Instant;

/** Writes the progress consumers report ({@code JobContext.progress}), apart from their jobs' transactions. */
@ApplicationScoped
public class ProgressStore {

    @Inject
    TransactionalJdbc jdbc;

    /**
     * Writes one job's progress in attempt {@code attempt}, in a transaction of its own; nothing if the job has gone
     * on to another attempt, or is gone. The row stays as it was otherwise: no index holds these columns.
     */
    @Transactional(TxType.REQUIRES_NEW)
    public void write(String id, int attempt, double fraction, String note, Instant at) {
        jdbc.run((connection, db) -> {
            try (PreparedStatement update = connection.prepareStatement("UPDATE jobqueue_job SET progress = ?,"
                    + " progress_note = ?, progress_attempt = ?, progress_at = ? WHERE id = ? AND attempts = ?")) {
                update.setDouble(1, fraction);
                update.setString(2, note);
                update.setInt(3, attempt);
                db.bind(update, 4, at);
                update.setString(5, id);
                update.setInt(6, attempt);
                return update.executeUpdate();
            }
        });
    }
}
