package dev.jobqueue.internal.schedule;

import dev.jobqueue.internal.store.StoredDeclaration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Which of a schedule's {@code @Recurring} declarations defines it: of those a running node declared lately, the
 * one first declared last, so a newer version wins over an older one while both run, and an older one takes over
 * once the newer one is no longer declared, as in a rollback. A tie, two declarations first made at one instant,
 * goes to the greater fingerprint, so that every node picks the same one.
 */
final class DeclarationInForce {

    private static final Comparator<StoredDeclaration> NEWEST_LAST = Comparator
            .comparing(StoredDeclaration::declaredAt).thenComparing(StoredDeclaration::fingerprint);

    private DeclarationInForce() {
    }

    /** @param seenSince the declarations a running node declared at or after this instant count */
    static Optional<StoredDeclaration> among(List<StoredDeclaration> declarations, Instant seenSince) {
        return declarations.stream().filter(declaration -> !declaration.seenAt().isBefore(seenSince))
                .max(NEWEST_LAST);
    }
}
