package dev.jobqueue.it.app;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/** A payload with the shapes JSON-B must round-trip: text, numbers, a list, a nested record and an instant. */
public record Confirmation(String orderId, BigDecimal total, List<Line> lines, Instant placedAt) {

    /** One order line. */
    public record Line(String sku, int quantity) {
    }
}
