package dev.jobqueue.internal.store;

import dev.jobqueue.internal.JndiNames;
import dev.jobqueue.internal.Messages;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * Makes sure jobqueue's datasource runs its transactions at READ COMMITTED. Releasing a job that waits for
 * others, and firing {@code GroupFinished}, lock a row and then look for the jobs still unfinished: under
 * REPEATABLE READ that look reads the transaction's snapshot, so two jobs that finish together can each miss
 * the other. PostgreSQL and H2 use READ COMMITTED by default; MariaDB uses REPEATABLE READ unless the
 * datasource says otherwise. {@code IsolationValidation} runs this check when the application deploys.
 */
@ApplicationScoped
public class IsolationCheck {

    /** The persistence unit's jta-data-source, as in {@link TransactionalJdbc}. */
    @Resource(lookup = JndiNames.DATASOURCE)
    DataSource dataSource;

    /**
     * Makes the bean, with its datasource: throws whatever the server throws when it cannot look the datasource
     * up yet (Payara, while it validates an application without EJB).
     */
    public void prepare() {
        Objects.requireNonNull(dataSource, JndiNames.DATASOURCE);
    }

    /** @throws IllegalStateException if the datasource's connections are not READ COMMITTED */
    public void verify() {
        int level;
        try (Connection connection = dataSource.getConnection()) {
            level = connection.getTransactionIsolation();
        } catch (SQLException e) {
            throw new IllegalStateException(Messages.databaseFailedAtStart(e.getMessage()), e);
        }
        if (level != Connection.TRANSACTION_READ_COMMITTED) {
            throw new IllegalStateException(Messages.wrongIsolation(name(level)));
        }
    }

    static String name(int level) {
        return switch (level) {
            case Connection.TRANSACTION_NONE -> "no isolation (TRANSACTION_NONE)";
            case Connection.TRANSACTION_READ_UNCOMMITTED -> "READ UNCOMMITTED";
            case Connection.TRANSACTION_REPEATABLE_READ -> "REPEATABLE READ";
            case Connection.TRANSACTION_SERIALIZABLE -> "SERIALIZABLE";
            default -> "the isolation level " + level;
        };
    }
}
