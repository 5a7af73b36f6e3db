package dev.jobqueue.it.batch;

import dev.jobqueue.Consumer;
import dev.jobqueue.it.app.PlacedOrder;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

/**
 * A consumer of one job per call that lets several waiting jobs share a transaction ({@code jobsPerTransaction}):
 * it saves an order per job with JPA, records which transaction each call ran in, and throws for a payload that
 * starts with "poison".
 */
@ApplicationScoped
public class GroupedConsumer {

    static final int JOBS_PER_TRANSACTION = 8;

    @PersistenceContext(unitName = "app")
    EntityManager em;

    @Inject
    BatchCalls calls;

    @Inject
    TransactionTag transaction;

    @Consumer(queue = "grouped-orders", jobsPerTransaction = JOBS_PER_TRANSACTION, maxAttempts = 2)
    public void save(String orderId) {
        calls.calledIn(transaction.name(), orderId);
        if (orderId.startsWith("poison")) {
            throw new IllegalArgumentException("cannot save order " + orderId);
        }
        em.persist(new PlacedOrder(orderId, "grouped"));
        em.flush();
    }
}
