package dev.jobqueue.internal.store;

import dev.jobqueue.internal.JndiNames;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.PersistenceException;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * Plain JDBC in the current JTA transaction, on the datasource of jobqueue's persistence unit: the server
 * shares one physical connection among the users of a datasource within a transaction, so these statements
 * commit or roll back with the caller's work and Hibernate's. The hot statements (a put, finishing a job) use
 * it: going through Hibernate would open a session per transaction and translate a JPQL bulk statement at
 * every execution, and a native query through the EntityManager flushes the session first.
 */
@ApplicationScoped
class TransactionalJdbc {

    /** Work on the connection, told which database it is. */
    @FunctionalInterface
    interface Work<T> {
        T run(Connection connection, Database database) throws SQLException;
    }

    /** The persistence unit's jta-data-source. */
    @Resource(lookup = JndiNames.DATASOURCE)
    DataSource dataSource;

    private volatile Database database;

    /** @throws PersistenceException if a statement fails, as it would from the EntityManager */
    <T> T run(Work<T> work) {
        try (Connection connection = dataSource.getConnection()) {
            return work.run(connection, database(connection));
        } catch (SQLException e) {
            throw new PersistenceException("jobqueue: " + e.getMessage(), e);
        }
    }

    private Database database(Connection connection) throws SQLException {
        Database known = database;
        if (known == null) {
            known = Database.of(connection.getMetaData().getDatabaseProductName());
            database = known;
        }
        return known;
    }
}
