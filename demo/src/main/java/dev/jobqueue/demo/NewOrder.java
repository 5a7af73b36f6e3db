package dev.jobqueue.demo;

/** The body of {@code POST /orders}. */
public record NewOrder(String customer, String item) {
}
