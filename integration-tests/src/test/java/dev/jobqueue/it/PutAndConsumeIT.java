package dev.jobqueue.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.InvalidPayloadException;
import dev.jobqueue.JobId;
import dev.jobqueue.JobQueue;
import dev.jobqueue.it.app.Confirmation;
import dev.jobqueue.it.app.ConfirmationConsumer;
import dev.jobqueue.it.app.FlakyConsumer;
import dev.jobqueue.it.app.InstantConsumer;
import dev.jobqueue.it.app.OrderService;
import dev.jobqueue.it.app.PlacedOrder;
import dev.jobqueue.it.app.Recorder;
import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The outbox guarantee and the basic life of a job, on a real Liberty server and database. */
@ExtendWith(ArquillianExtension.class)
class PutAndConsumeIT {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @Deployment
    static WebArchive app() {
        return Deployments.war("put-and-consume", Confirmation.class, Confirmation.Line.class, OrderService.class,
                PlacedOrder.class, Recorder.class, ConfirmationConsumer.class, FlakyConsumer.class,
                InstantConsumer.class, Unserialisable.class);
    }

    @EJB
    OrderService orders;

    @Inject
    Recorder recorder;

    @Inject
    JobQueue jobs;

    @Test
    void a_put_in_a_committed_ejb_transaction_reaches_the_consumer_with_an_equal_payload() throws Exception {
        Confirmation sent = confirmation();

        JobId id = orders.place(sent);

        List<Recorder.Call> calls = recorder.await(id, 1, WAIT);
        assertEquals(1, calls.size(), "the consumer runs the job once");
        assertEquals(sent, calls.get(0).payload());
        assertEquals("confirmations", calls.get(0).queue());
        assertEquals(1, calls.get(0).attempt());
        assertTrue(orders.orderExists(sent.orderId()));
        awaitState(id, "DONE");
    }

    @Test
    void a_put_in_a_rolled_back_ejb_transaction_leaves_no_job_no_order_and_no_consumer_call() throws Exception {
        Confirmation doomed = confirmation();

        assertThrows(EJBException.class, () -> orders.placeThenFail(doomed));

        JobId rolledBack = recorder.rolledBack();
        assertNotNull(rolledBack, "the put returned an id before the failure");
        assertEquals(0, orders.jobRows(rolledBack), "no job row exists");
        assertFalse(orders.orderExists(doomed.orderId()), "the business entity is rolled back too");
        // A job put afterwards on the same queue runs; by then the rolled-back one would have run too.
        JobId later = orders.place(confirmation());
        assertEquals(1, recorder.await(later, 1, WAIT).size());
        assertEquals(List.of(), recorder.callsOf(rolledBack), "the consumer never ran the rolled-back job");
    }

    @Test
    void a_consumer_that_throws_on_its_first_attempt_is_retried_and_the_job_ends_done() throws Exception {
        JobId id = orders.putFlaky("hello");

        List<Recorder.Call> calls = recorder.await(id, 2, WAIT);

        assertEquals(2, calls.size(), "one failed attempt, then one that succeeds");
        assertEquals(List.of(1, 2), calls.stream().map(Recorder.Call::attempt).toList());
        assertEquals("hello", calls.get(1).payload());
        awaitState(id, "DONE");
    }

    @Test
    void a_put_outside_any_transaction_commits_on_its_own() throws Exception {
        Confirmation sent = confirmation();

        JobId id = jobs.put("confirmations", sent);

        assertEquals(sent, recorder.await(id, 1, WAIT).get(0).payload());
    }

    @Test
    void a_payload_json_b_cannot_serialise_is_refused_with_its_type_named_and_nothing_is_written() {
        long before = orders.jobCount();

        InvalidPayloadException error = assertThrows(InvalidPayloadException.class,
                () -> jobs.put("confirmations", new Unserialisable()));

        assertTrue(error.getMessage().contains(Unserialisable.class.getName()), error.getMessage());
        assertTrue(error.getMessage().contains("confirmations"), error.getMessage());
        assertEquals(before, orders.jobCount(), "no row was written");
    }

    @Test
    void an_invalid_queue_name_is_refused_before_anything_is_written() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> jobs.put("Not A Queue", "x"));

        assertTrue(error.getMessage().contains("Not A Queue"), error.getMessage());
    }

    private void awaitState(JobId id, String expected) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        String state = orders.jobState(id);
        while (!expected.equals(state) && System.nanoTime() < deadline) {
            Thread.sleep(20);
            state = orders.jobState(id);
        }
        assertEquals(expected, state);
    }

    private static Confirmation confirmation() {
        return new Confirmation(UUID.randomUUID().toString(), new BigDecimal("42.50"),
                List.of(new Confirmation.Line("tea", 2), new Confirmation.Line("cake", 1)),
                Instant.now().truncatedTo(ChronoUnit.MILLIS));
    }

    /** A payload whose getter fails, so JSON-B cannot serialise it. */
    public static class Unserialisable {
        public String getValue() {
            throw new IllegalStateException("this value cannot be read");
        }
    }
}
