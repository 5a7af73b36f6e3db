package dev.jobqueue.demo;

import dev.jobqueue.Consumer;
import dev.jobqueue.JobContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.logging.Logger;

/** Sends order confirmations. It runs in the transaction that marks the job done, so the order is marked once. */
@ApplicationScoped
public class ConfirmationSender {

    private static final Logger LOG = Logger.getLogger(ConfirmationSender.class.getName());

    @Inject
    Orders orders;

    @Consumer(queue = "order-confirmation")
    public void send(OrderPlaced order, JobContext job) {
        LOG.info(() -> "demo: confirmation sent to " + order.customer() + " for order " + order.orderId() + " ("
                + order.item() + "), job " + job.id() + ", attempt " + job.attempt());
        orders.markConfirmed(order.orderId());
    }
}
