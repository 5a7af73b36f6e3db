package ${package};

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/** An order, saved in the same transaction that puts its confirmation job. */
@Entity
@Table(name = "shop_order")
public class Order {

    @Id
    private String id;
    private String item;
    private Instant confirmedAt;

    protected Order() {
    }

    Order(String id, String item) {
        this.id = id;
        this.item = item;
    }

    void confirm(Instant at) {
        confirmedAt = at;
    }

    public String getId() {
        return id;
    }

    public String getItem() {
        return item;
    }

    public Instant getConfirmedAt() {
        return confirmedAt;
    }
}
