package dev.jobqueue.internal.dispatch;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The message a put sends every node through PostgreSQL's NOTIFY: the queue, and the node that put the job.
 * That node has woken its own poller at commit already, so it ignores its own messages. Sent and heard only
 * with {@code jobqueue.notify.enabled} (the default).
 */
@ApplicationScoped
public class WakeMessages {

    static final String ENABLED_KEY = "jobqueue.notify.enabled";

    private final String node = UUID.randomUUID().toString();
    private boolean enabled;

    @PostConstruct
    void readConfig() {
        enabled = ConfigProvider.getConfig().getOptionalValue(ENABLED_KEY, Boolean.class).orElse(true);
    }

    public boolean enabled() {
        return enabled;
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
