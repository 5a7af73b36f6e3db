package dev.jobqueue.internal.wake;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class WakeMessagesTest {

    private final WakeMessages thisNode = new WakeMessages();
    private final WakeMessages otherNode = new WakeMessages();

    @Test
    void a_message_from_another_node_wakes_the_queue_it_names() {
        assertEquals(Optional.of("order-confirmation.eu"), thisNode.queueToWake(otherNode.of("order-confirmation.eu")));
    }

    @Test
    void a_node_ignores_its_own_messages_because_it_woke_its_poller_at_commit() {
        assertEquals(Optional.empty(), thisNode.queueToWake(thisNode.of("email")));
    }

    @Test
    void a_message_that_is_not_a_wake_message_is_ignored() {
        assertEquals(Optional.empty(), thisNode.queueToWake("email"));
        assertEquals(Optional.empty(), thisNode.queueToWake(" node"));
    }
}
