package dev.jobqueue.internal.store;

import dev.jobqueue.internal.JndiNames;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.PersistenceException;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Collections;
import java.util.List;
import javax.sql.DataSource;

/** Sends messages on the {@linkplain ListenConnection#CHANNEL wake channel} with PostgreSQL's NOTIFY. */
@ApplicationScoped
public class NotifyChannel {

    @Resource(lookup = JndiNames.DATASOURCE)
    DataSource dataSource;

    private volatile Boolean postgresql;

    /**
     * Sends the messages at once, outside any transaction.
     *
     * @return false, having sent nothing, if the database is not PostgreSQL
     * @throws PersistenceException if the database cannot be reached
     */
    @Transactional(TxType.NOT_SUPPORTED)
    public boolean send(List<String> messages) {
        try (Connection connection = dataSource.getConnection()) {
            if (!isPostgresql(connection)) {
                return false;
            }
            String calls = String.join(", ", Collections.nCopies(messages.size(), "pg_notify(?, ?)"));
            try (PreparedStatement notify = connection.prepareStatement("SELECT " + calls)) {
                for (int i = 0; i < messages.size(); i++) {
                    notify.setString(2 * i + 1, ListenConnection.CHANNEL);
                    notify.setString(2 * i + 2, messages.get(i));
                }
                notify.executeQuery().close();
            }
            if (!connection.getAutoCommit()) {
                connection.commit();
            }
            return true;
        } catch (SQLException e) {
            throw new PersistenceException("jobqueue: cannot NOTIFY: " + e.getMessage(), e);
        }
    }

    private boolean isPostgresql(Connection connection) throws SQLException {
        Boolean known = postgresql;
        if (known == null) {
            known = Database.of(connection.getMetaData().getDatabaseProductName()) == Database.POSTGRESQL;
            postgresql = known;
        }
        return known;
    }
}
