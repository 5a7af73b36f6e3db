package dev.jobqueue.internal.wake;

import dev.jobqueue.internal.config.NodeSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;
import java.util.UUID;

/**
 * The message a put sends every node through PostgreSQL's NOTIFY: the queue, and the node that put the job.
 * That node has woken its own poller at commit already, so it ignores its own messages. Sent and heard only
 * with {@code jobqueue.notify.enabled} (the default).
 */
@ApplicationScoped
public class WakeMessages {

    private final String node = UUID.randomUUID().toString();

    @Inject
    NodeSettings settings;

    public boolean enabled() {
        return settings.notifyEnabled();
    }

    /** The message telling other nodes that jobs were put on {@code queue}. */
    public String of(String queue) {
        return queue + " " + node;
    }

    /** The queue to wake for a message, or empty if this node sent it or it is not a wake message. */
    public Optional<String> queueToWake(String message) {
        int space = message.indexOf(' ');
        if (space <= 0 || message.substring(space + 1).equals(node)) {
            return Optional.empty();
        }
        return Optional.of(message.substring(0, space));
    }
}
