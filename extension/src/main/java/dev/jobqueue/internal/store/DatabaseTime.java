package dev.jobqueue.internal.store;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;

/** Reads the database's clock, which every node's leases are measured against. */
@ApplicationScoped
public class DatabaseTime {

    @Inject
    TransactionalJdbc jdbc;

    /** The database's time now. */
    @Transactional(TxType.REQUIRES_NEW)
    public Instant now() {
        return jdbc.run((connection, db) -> {
            try (PreparedStatement query = connection.prepareStatement(db.currentTimeQuery());
                 ResultSet row = query.executeQuery()) {
                row.next();
                return db.instant(row, 1);
            }
        });
    }
}
