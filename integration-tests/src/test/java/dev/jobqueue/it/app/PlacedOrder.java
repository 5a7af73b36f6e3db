package dev.jobqueue.it.app;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** The business entity a test writes in the same transaction as a put. */
@Entity
@Table(name = "it_placed_order")
public class PlacedOrder {

    @Id
    private String id;

    private String customer;

    protected PlacedOrder() {
    }

    public PlacedOrder(String id, String customer) {
        this.id = id;
        this.customer = customer;
    }

    public String getId() {
        return id;
    }
}
