package dev.jobqueue.it.batch;

import dev.jobqueue.Consumer;
import dev.jobqueue.JobContext;
import dev.jobqueue.QueueBackoffException;
import dev.jobqueue.it.app.PlacedOrder;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Duration;
import java.util.List;

/**
 * A batch consumer that saves an order per payload with JPA, in the transaction that marks its jobs DONE, and
 * throws for a payload that starts with "poison". The first call of several payloads of a tag that starts with
 * "backoff" tells the queue to back off for 30 s, as a partner's "429" would.
 */
@ApplicationScoped
public class BatchConsumers {

    static final int JOBS_PER_CALL = 25;

    @PersistenceContext(unitName = "app")
    EntityManager em;

    @Inject
    BatchCalls calls;

    @Consumer(queue = "batch-orders", jobsPerCall = JOBS_PER_CALL, maxAttempts = 2)
    public void save(List<String> orderIds, List<JobContext> contexts) {
        calls.called(orderIds, contexts);
        if (orderIds.size() > 1
                && orderIds.stream().anyMatch(id -> id.startsWith("backoff-") && calls.firstBackoff(id, orderIds))) {
            throw new QueueBackoffException(Duration.ofSeconds(30), "partner: 429 Too Many Requests");
        }
        for (String orderId : orderIds) {
            if (orderId.startsWith("poison")) {
                throw new IllegalArgumentException("cannot save order " + orderId);
            }
            em.persist(new PlacedOrder(orderId, "batch"));
        }
        em.flush();
    }
}
