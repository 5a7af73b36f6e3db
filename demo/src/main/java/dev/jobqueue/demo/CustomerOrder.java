package dev.jobqueue.demo;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/** An order, saved in the same transaction that enqueues its confirmation. */
@Entity
@Table(name = "demo_order")
public class CustomerOrder {

    @Id
    private String id;
    private String customer;
    private String item;
    private Instant placedAt;
    private Instant confirmedAt;

    protected CustomerOrder() {
    }

    CustomerOrder(String id, String customer, String item, Instant placedAt) {
        this.id = id;
        this.customer = customer;
        this.item = item;
        this.placedAt = placedAt;
    }

    void confirm(Instant at) {
        confirmedAt = at;
    }

    public String getId() {
        return id;
    }

    public String getCustomer() {
        return customer;
    }

    public String getItem() {
        return item;
    }

    public Instant getPlacedAt() {
        return placedAt;
    }

    public Instant getConfirmedAt() {
        return confirmedAt;
    }
}
