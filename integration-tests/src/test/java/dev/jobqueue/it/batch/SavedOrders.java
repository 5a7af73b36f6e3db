package dev.jobqueue.it.batch;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

/** Counts the orders the batch consumer's committed transactions saved. */
@ApplicationScoped
public class SavedOrders {

    @PersistenceContext(unitName = "app")
    EntityManager em;

    public long count(String idPrefix) {
        return ((Number) em.createNativeQuery("SELECT COUNT(*) FROM it_placed_order WHERE id LIKE ?1")
                .setParameter(1, idPrefix + "%").getSingleResult()).longValue();
    }
}
