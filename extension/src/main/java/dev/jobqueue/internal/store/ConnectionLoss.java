package dev.jobqueue.internal.store;

import java.sql.SQLException;
import java.util.Set;

/**
 * Whether an error means that the database connection was lost or the database stopped taking writes, as in a
 * failover, rather than that a statement or a consumer failed: SQLSTATE class 08 (connection exception), 25006
 * (read-only transaction: a primary that was demoted), 57P01 to 57P03 (the server shut down, crashed, or is not
 * taking connections yet). Another attempt on a new connection can succeed, so such an error is no fault of the job.
 */
public final class ConnectionLoss {

    private static final Set<String> STATES = Set.of("25006", "57P01", "57P02", "57P03");

    private ConnectionLoss() {
    }

    /** Whether {@code error}, or an exception it was caused by or chained to, is a connection loss. */
    public static boolean causedBy(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof SQLException sql) {
                for (SQLException next = sql; next != null; next = next.getNextException()) {
                    String state = next.getSQLState();
                    if (state != null && (state.startsWith("08") || STATES.contains(state))) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
}
