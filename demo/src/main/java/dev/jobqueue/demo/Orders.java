package dev.jobqueue.demo;

import dev.jobqueue.JobQueue;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** Places orders. The order and its confirmation job commit together, or not at all. */
@Stateless
public class Orders {

    @PersistenceContext(unitName = "demo")
    EntityManager em;

    @Inject
    JobQueue jobs;

    public CustomerOrder place(NewOrder request) {
        CustomerOrder order = new CustomerOrder(UUID.randomUUID().toString(), request.customer(), request.item(),
                Instant.now());
        em.persist(order);
        jobs.put("order-confirmation", new OrderPlaced(order.getId(), order.getCustomer(), order.getItem()));
        return order;
    }

    public List<CustomerOrder> all() {
        return em.createQuery("SELECT o FROM CustomerOrder o ORDER BY o.placedAt", CustomerOrder.class)
                .getResultList();
    }

    public void markConfirmed(String orderId) {
        em.find(CustomerOrder.class, orderId).confirm(Instant.now());
    }
}
