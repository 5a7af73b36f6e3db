package ${package};

/** The confirmation job's payload, stored as JSON. */
public record OrderPlaced(String orderId) {
}
