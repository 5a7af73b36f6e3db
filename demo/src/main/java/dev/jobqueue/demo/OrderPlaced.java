package dev.jobqueue.demo;

/** The payload of a confirmation job. */
public record OrderPlaced(String orderId, String customer, String item) {
}
