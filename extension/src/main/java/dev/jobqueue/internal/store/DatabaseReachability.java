package dev.jobqueue.internal.store;

import dev.jobqueue.internal.JndiNames;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * Whether the database answers a plain {@code SELECT 1}, asked straight through the datasource. Background
 * tasks ask it during an outage instead of retrying their work, because Hibernate logs every failed statement.
 */
@ApplicationScoped
public class DatabaseReachability {

    @Resource(lookup = JndiNames.DATASOURCE)
    DataSource dataSource;

    public boolean reachable() {
        // A statement rather than Connection.isValid: its failure lets the pool discard a connection gone stale.
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("SELECT 1");
            return true;
        } catch (SQLException e) {
            return false;
        }
    }
}
