package dev.jobqueue.internal.store.hibernate;

import org.hibernate.dialect.Dialect;
import org.hibernate.dialect.H2Dialect;
import org.hibernate.engine.jdbc.dialect.spi.DialectResolutionInfo;
import org.hibernate.engine.jdbc.dialect.spi.DialectResolver;

/**
 * Makes Hibernate claim H2 rows with {@code FOR UPDATE SKIP LOCKED}. H2 supports it, but Hibernate's
 * H2Dialect does not declare it and silently emits a plain {@code FOR UPDATE}, which makes a second
 * claimer block. Every other database is left to Hibernate's standard resolution.
 */
public class H2SkipLockedDialectResolver implements DialectResolver {

    private static final long serialVersionUID = 1L;

    @Override
    public Dialect resolveDialect(DialectResolutionInfo info) {
        return "H2".equals(info.getDatabaseName()) ? new H2SkipLockedDialect(info) : null;
    }

    /** H2's dialect with SKIP LOCKED declared. */
    public static class H2SkipLockedDialect extends H2Dialect {

        public H2SkipLockedDialect(DialectResolutionInfo info) {
            super(info);
        }

        @Override
        public boolean supportsSkipLocked() {
            return true;
        }

        @Override
        public String getForUpdateSkipLockedString() {
            return " for update skip locked";
        }

        @Override
        public String getForUpdateSkipLockedString(String aliases) {
            return getForUpdateSkipLockedString();
        }
    }
}
