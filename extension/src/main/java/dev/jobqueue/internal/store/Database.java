package dev.jobqueue.internal.store;

import dev.jobqueue.internal.Messages;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Calendar;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TimeZone;

/** The databases jobqueue runs on, and the little SQL that differs between them. */
enum Database {

    POSTGRESQL("postgresql.sql", " ON CONFLICT DO NOTHING", "dedupe_key = ? AND state IN ('PENDING', 'RUNNING', 'WAITING')"),
    MARIADB("mariadb.sql", " ON DUPLICATE KEY UPDATE {key} = {key}", "dedupe_slot = ?"),
    H2("h2.sql", "", "dedupe_slot = ?");

    private final String script;
    private final String insertUnlessDuplicate;
    private final String heldKey;

    Database(String script, String insertUnlessDuplicate, String heldKey) {
        this.script = script;
        this.insertUnlessDuplicate = insertUnlessDuplicate;
        this.heldKey = heldKey;
    }

    /**
     * The database of a product name from the JDBC driver. MySQL is refused: MariaDB's driver names a MySQL
     * server "MySQL", and the MariaDB DDL and some statements do not work there.
     *
     * @throws IllegalStateException if jobqueue does not support the database
     */
    static Database of(String productName) {
        String product = productName.toLowerCase(Locale.ROOT);
        if (product.contains("postgres")) {
            return POSTGRESQL;
        }
        if (product.contains("mariadb")) {
            return MARIADB;
        }
        if (product.contains("h2")) {
            return H2;
        }
        throw new IllegalStateException(Messages.unsupportedDatabase(productName));
    }

    /** The DDL script's name in {@code META-INF/jobqueue/schema/}. */
    String script() {
        return script;
    }

    /**
     * What follows an INSERT so that a unique-key conflict writes nothing and leaves the transaction usable.
     * PostgreSQL needs ON CONFLICT, because an error there aborts the whole transaction. MariaDB needs ON
     * DUPLICATE KEY UPDATE, because a duplicate-key error leaves a shared lock on the holder, and two such puts
     * that then lock the holder deadlock; this takes the holder's exclusive lock at once, so they queue. On H2 a
     * failed statement is undone alone, so the caller catches the duplicate-key error instead.
     */
    String insertUnlessDuplicate(String primaryKey) {
        return insertUnlessDuplicate.replace("{key}", primaryKey);
    }

    /**
     * Binds an instant, or NULL, as Hibernate binds it with {@code hibernate.jdbc.time_zone=UTC}: an offset
     * date-time in UTC where the column has a time zone, a UTC timestamp in MariaDB's DATETIME.
     */
    void bind(PreparedStatement statement, int index, Instant value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.TIMESTAMP);
        } else if (this == MARIADB) {
            statement.setTimestamp(index, Timestamp.from(value), Calendar.getInstance(TimeZone.getTimeZone("UTC")));
        } else {
            statement.setObject(index, value.atOffset(ZoneOffset.UTC));
        }
    }

    /** Reads an instant written by {@link #bind}, or null. */
    Instant instant(ResultSet row, int index) throws SQLException {
        if (this == MARIADB) {
            Timestamp value = row.getTimestamp(index, Calendar.getInstance(TimeZone.getTimeZone("UTC")));
            return value == null ? null : value.toInstant();
        }
        OffsetDateTime value = row.getObject(index, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }

    /** Whether an UPDATE or a DELETE can return the rows it changed ({@code RETURNING}). */
    boolean updatesReturningRows() {
        return this == POSTGRESQL;
    }

    /**
     * Whether a claim may read a queue's due jobs from a place ({@link ClaimStart}) rather than from the first. Not
     * on MariaDB: InnoDB locks the first index entry past such a range until the claim commits, even at READ
     * COMMITTED, and that entry is the first due job of the next priority or of the next queue, which another
     * claim then skips. A retry claimed only by its timer could wait a whole poll interval.
     */
    boolean claimsFromAPlace() {
        return this != MARIADB;
    }

    /**
     * Whether an insert skipped by {@link #insertUnlessDuplicate(String)} still reports one row: MariaDB's driver
     * reports rows found, not rows changed.
     */
    boolean reportsSkippedInsertAsRow() {
        return this == MARIADB;
    }

    /**
     * Lets the connection's next statements in this transaction wait for a row lock for as long as it is held,
     * where that is a transaction setting (PostgreSQL); see {@link #waitingForRowLock} for MariaDB.
     */
    void waitForRowLocks(Connection connection) throws SQLException {
        if (this == POSTGRESQL) {
            try (Statement set = connection.createStatement()) {
                set.execute("SET LOCAL lock_timeout = 0");
            }
        }
    }

    /**
     * The statement, made to wait for a row lock for as long as it is held, a day at most, where that is a
     * statement option (MariaDB). H2 waits for its {@code LOCK_TIMEOUT}.
     */
    String waitingForRowLock(String sql) {
        return this == MARIADB ? "SET STATEMENT innodb_lock_wait_timeout = 86400 FOR " + sql : sql;
    }

    /** Whether the statement failed because a row stayed locked for longer than it would wait. */
    boolean isLockWaitTimeout(SQLException e) {
        return switch (this) {
            case POSTGRESQL -> "55P03".equals(e.getSQLState());
            case MARIADB -> e.getErrorCode() == 1205;
            case H2 -> e.getErrorCode() == 50200;
        };
    }

    /** A query whose one row and column is the database's current time, read with {@link #instant}. */
    String currentTimeQuery() {
        return this == MARIADB ? "SELECT UTC_TIMESTAMP(6)" : "SELECT CURRENT_TIMESTAMP";
    }

    /**
     * A query for the database's time when the statement runs, not when its transaction began, so that of two
     * transactions that take the same lock one after the other, the second reads the later time; empty on H2,
     * whose clock functions keep the transaction's time.
     */
    Optional<String> statementTimeQuery() {
        return switch (this) {
            case POSTGRESQL -> Optional.of("SELECT clock_timestamp()");
            case MARIADB -> Optional.of("SELECT UTC_TIMESTAMP(6)");
            case H2 -> Optional.empty();
        };
    }

    /** The condition, with the key as its only parameter after the queue, that finds the job holding a key. */
    String heldKey() {
        return heldKey;
    }

    /** {@code count} parameter markers for an {@code IN} list: {@code ?, ?, ?}. */
    static String placeholders(int count) {
        return String.join(", ", Collections.nCopies(count, "?"));
    }

    /** Binds {@code values} to the parameters from {@code first} on. */
    static void bindStrings(PreparedStatement statement, int first, List<String> values) throws SQLException {
        for (int i = 0; i < values.size(); i++) {
            statement.setString(first + i, values.get(i));
        }
    }
}
