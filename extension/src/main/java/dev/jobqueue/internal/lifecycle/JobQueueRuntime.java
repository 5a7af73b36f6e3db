package dev.jobqueue.internal.lifecycle;

import dev.jobqueue.internal.config.Durations;
import dev.jobqueue.internal.config.QueueOptions;
import dev.jobqueue.internal.discovery.ConsumerMethod;
import dev.jobqueue.internal.discovery.JobQueueExtension;
import dev.jobqueue.internal.dispatch.Dispatcher;
import dev.jobqueue.internal.dispatch.LeaseKeeper;
import dev.jobqueue.internal.store.SchemaCheck;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.BeforeDestroyed;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/** Starts jobqueue when the application starts, and stops it, gracefully, before the application stops. */
@ApplicationScoped
public class JobQueueRuntime {

    static final String SCHEMA_CREATE = "jobqueue.schema.create";
    static final String SHUTDOWN_GRACE = "jobqueue.shutdown-grace";
    static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(10);

    @Inject
    JobQueueExtension extension;

    @Inject
    SchemaCheck schema;

    @Inject
    Dispatcher dispatcher;

    @Inject
    LeaseKeeper leaseKeeper;

    void start(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        Config config = ConfigProvider.getConfig();
        schema.verify(config.getOptionalValue(SCHEMA_CREATE, Boolean.class).orElse(false));
        for (ConsumerMethod consumer : extension.consumers()) {
            dispatcher.start(consumer, extension.options(consumer.queue()));
        }
        extension.consumers().stream().map(consumer -> extension.options(consumer.queue()).lease())
                .min(Duration::compareTo)
                .ifPresent(shortest -> leaseKeeper.start(extension::options, shortest));
    }

    void stop(@Observes @BeforeDestroyed(ApplicationScoped.class) Object ignored) {
        Duration grace = ConfigProvider.getConfig().getOptionalValue(SHUTDOWN_GRACE, String.class)
                .map(Durations::parse).orElse(DEFAULT_SHUTDOWN_GRACE);
        dispatcher.stop(grace);
        leaseKeeper.stop();
    }

    /** The options in force for {@code queue}; exposed for tests and administration. */
    public QueueOptions options(String queue) {
        return extension.options(queue);
    }
}
