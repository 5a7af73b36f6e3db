package ${package};

import dev.jobqueue.Consumer;
import dev.jobqueue.JobContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.logging.Logger;

/** Confirms each placed order. Return normally and the job is DONE; throw and it is retried with backoff. */
@ApplicationScoped
public class ConfirmationSender {

    private static final Logger LOG = Logger.getLogger(ConfirmationSender.class.getName());

    @Inject
    Orders orders;

    @Consumer(queue = Orders.CONFIRMATION_QUEUE)
    public void confirm(OrderPlaced placed, JobContext job) {
        orders.confirm(placed.orderId());
        LOG.info(() -> "confirmed order " + placed.orderId() + " (attempt " + job.attempt() + ")");
    }
}
