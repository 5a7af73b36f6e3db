package dev.jobqueue.internal.store;

import dev.jobqueue.internal.SafeText;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Base64;

/**
 * Where a page of a job listing ended: the last row's put order and due time. The next page starts after it,
 * so a page deep in the list costs what the first one does. It travels as an opaque token.
 *
 * @param seq   the last row's put order
 * @param runAt the last row's due time
 */
public record JobCursor(long seq, Instant runAt) {

    /** The range of times every supported database stores (MariaDB's DATETIME is the narrowest): a job's is in it. */
    private static final Instant EARLIEST = Instant.parse("1000-01-01T00:00:00Z");
    private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59Z");

    /** The token for a URL. */
    public String token() {
        String plain = seq + "." + runAt.getEpochSecond() + "." + runAt.getNano();
        return Base64.getUrlEncoder().withoutPadding().encodeToString(plain.getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * Reads a token made by {@link #token()}.
     *
     * @throws IllegalArgumentException if it is not one
     */
    public static JobCursor parse(String token) {
        try {
            String[] parts = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.US_ASCII).split("\\.");
            if (parts.length != 3) {
                throw new IllegalArgumentException(token);
            }
            long nanos = Long.parseLong(parts[2]);
            Instant runAt = Instant.ofEpochSecond(Long.parseLong(parts[1]), nanos);
            if (nanos < 0 || nanos > 999_999_999 || runAt.isBefore(EARLIEST) || runAt.isAfter(LATEST)) {
                throw new IllegalArgumentException(token);
            }
            return new JobCursor(Long.parseLong(parts[0]), runAt);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("'" + SafeText.of(token) + "' is not a page token from this listing",
                    e);
        }
    }

    /**
     * The condition on the rows after this cursor in {@code sort}'s order, with {@link #bind}'s parameters. Due
     * order compares {@code (run_at, seq)} as a row where the database reads that as one range of its index
     * (PostgreSQL and H2); MariaDB's optimizer reads the spelled-out form as a range instead.
     */
    String after(JobSort sort, Database db) {
        return switch (sort) {
            case PUT -> "seq < ?";
            case DUE -> db == Database.MARIADB ? "(run_at > ? OR (run_at = ? AND seq > ?))" : "(run_at, seq) > (?, ?)";
        };
    }

    /** Binds {@link #after}'s parameters from {@code first} on. */
    void bind(PreparedStatement statement, int first, JobSort sort, Database db) throws SQLException {
        int index = first;
        if (sort == JobSort.DUE) {
            db.bind(statement, index++, runAt);
            if (db == Database.MARIADB) {
                db.bind(statement, index++, runAt);
            }
        }
        statement.setLong(index, seq);
    }
}
