package ${package};

import dev.jobqueue.JobQueue;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Instant;
import java.util.UUID;

/** Places orders. Each order and its confirmation job commit together, or neither does. */
@Stateless
public class Orders {

    public static final String CONFIRMATION_QUEUE = "order-confirmation";

    @PersistenceContext(unitName = "app")
    EntityManager em;

    @Inject
    JobQueue jobs;

    public String place(String item) {
        Order order = new Order(UUID.randomUUID().toString(), item);
        em.persist(order);
        jobs.put(CONFIRMATION_QUEUE, new OrderPlaced(order.getId()));
        return order.getId();
    }

    public Order find(String id) {
        return em.find(Order.class, id);
    }

    public void confirm(String id) {
        em.find(Order.class, id).confirm(Instant.now());
    }
}
