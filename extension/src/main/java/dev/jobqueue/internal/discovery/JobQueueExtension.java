package dev.jobqueue.internal.discovery;

import dev.jobqueue.Consumer;
import dev.jobqueue.internal.cron.ScheduleDefinition;
import dev.jobqueue.internal.Messages;
import dev.jobqueue.internal.config.AnnotatedOptions;
import dev.jobqueue.internal.config.ConfigKeyCheck;
import dev.jobqueue.internal.config.DatasourceVariables;
import dev.jobqueue.internal.config.NodeSettings;
import dev.jobqueue.internal.config.PayloadLimit;
import dev.jobqueue.internal.config.QueueOptions;
import dev.jobqueue.internal.config.QueueOptionsResolver;
import dev.jobqueue.internal.consumer.ConsumerMethod;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.BeforeBeanDiscovery;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessManagedBean;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.ConfigValue;

/**
 * Finds every {@link Consumer} method at deployment and validates it. A bad signature or queue name is a
 * definition error; two consumers for one queue, a bad configuration value, or a key in the application's own
 * file that would have no effect, is a deployment problem. Either way the application does not start, and the
 * message names the method or the key.
 */
public class JobQueueExtension implements Extension {

    private final List<ConsumerMethod> found = new ArrayList<>();
    private final Map<String, ScheduleDefinition> schedules = new ConcurrentHashMap<>();
    private final Map<String, ConsumerMethod> consumers = new ConcurrentHashMap<>();
    private final Map<String, QueueOptions> options = new ConcurrentHashMap<>();
    private final Set<String> producerOnly = ConcurrentHashMap.newKeySet();
    private volatile QueueOptionsResolver resolver;
    private volatile PayloadLimit unconsumedPayloadLimit;

    /**
     * Adds the beans of the server features jobqueue reports to, as application-scoped beans: they carry no
     * bean-defining annotation, so that scanning never finds them, and this is the one place that decides.
     */
    void addIntegrations(@Observes BeforeBeanDiscovery event) {
        Integrations integrations = Integrations.visibleTo(Thread.currentThread().getContextClassLoader());
        for (Class<?> type : integrations.beanClasses()) {
            event.addAnnotatedType(type, JobQueueExtension.class.getName() + "/" + type.getSimpleName())
                    .add(ApplicationScoped.Literal.INSTANCE);
        }
    }

    <T> void findConsumers(@Observes ProcessManagedBean<T> event) {
        ConsumerDeclarations declared = ConsumerDeclarations.of(event.getBean(), event.getAnnotatedBeanClass());
        declared.errors().forEach(event::addDefinitionError);
        found.addAll(declared.consumers());
    }

    void validate(@Observes AfterDeploymentValidation event) {
        for (ConsumerMethod consumer : found) {
            ConsumerMethod previous = consumers.putIfAbsent(consumer.queue(), consumer);
            if (previous != null) {
                event.addDeploymentProblem(new DeploymentException(
                        Messages.duplicateQueue(consumer.queue(), previous.method(), consumer.method())));
            }
        }
        Config config = ConfigProvider.getConfig();
        Function<String, Optional<String>> lookup = key -> config.getOptionalValue(key, String.class);
        resolver = new QueueOptionsResolver(lookup, Thread.currentThread().getContextClassLoader());
        // A bad global key is found by every queue that reads it: report each problem once.
        Set<String> badValues = new LinkedHashSet<>();
        resolveQueueOptions(badValues);
        RecurringSchedules.resolve(consumers.values(), lookup, schedules, badValues);
        Iterable<String> keys = config.getPropertyNames();
        resolveProducerOnlyQueues(keys, badValues);
        try {
            unconsumedPayloadLimit = resolver.unconsumedPayloadLimit();
        } catch (IllegalArgumentException e) {
            badValues.add(e.getMessage());
        }
        try {
            NodeSettings.parse(lookup);
        } catch (IllegalArgumentException e) {
            e.getMessage().lines().forEach(badValues::add);
        }
        badValues.forEach(problem -> event.addDeploymentProblem(new DeploymentException(problem)));
        ConfigKeyCheck.problems(ApplicationConfigFiles.keys(), ownQueues(),
                RecurringSchedules.names(consumers.values()))
                .forEach(problem -> event.addDeploymentProblem(new DeploymentException(problem)));
        // A value of "" counts as set (an empty password); one from the application's own file does not, since
        // the server's datasource cannot see it.
        DatasourceVariables.problems(lookup.apply(DatasourceVariables.MARKER), variable -> {
            ConfigValue value = config.getConfigValue(variable);
            return value.getValue() != null && !ApplicationConfigFiles.isOne(value.getSourceName());
        }).forEach(problem -> event.addDeploymentProblem(new DeploymentException(problem)));
    }

    private void resolveQueueOptions(Set<String> badValues) {
        for (ConsumerMethod consumer : consumers.values()) {
            try {
                QueueOptions resolved = resolver.resolve(consumer.queue(), AnnotatedOptions.of(consumer.annotation()),
                        consumer.describe());
                options.put(consumer.queue(), resolved);
                BatchOptionCheck.problem(consumer, resolved).ifPresent(badValues::add);
            } catch (IllegalArgumentException e) {
                e.getMessage().lines().forEach(badValues::add);
            }
        }
    }

    private void resolveProducerOnlyQueues(Iterable<String> keys, Set<String> badValues) {
        for (String queue : ConfigKeyCheck.queuesWithProducerOnlyKey(keys)) {
            try {
                if (resolver.producerOnly(queue)) {
                    producerOnly.add(queue);
                    options.put(queue, resolver.resolve(queue));
                }
            } catch (IllegalArgumentException e) {
                e.getMessage().lines().forEach(badValues::add);
            }
        }
    }

    /** The validated consumers, one per queue. */
    public Collection<ConsumerMethod> consumers() {
        return List.copyOf(consumers.values());
    }

    /** The schedules declared with {@code @Recurring}, with configuration applied. */
    public Collection<ScheduleDefinition> declaredSchedules() {
        return List.copyOf(schedules.values());
    }

    /** The queues this application consumes or marks {@code producer-only}. */
    public Set<String> ownQueues() {
        Set<String> own = new TreeSet<>(consumers.keySet());
        own.addAll(producerOnly);
        return own;
    }

    /** The options of a queue, whether this node consumes it or not. */
    public QueueOptions options(String queue) {
        return options.computeIfAbsent(queue, resolver::resolve);
    }

    /**
     * The payload limit for puts on {@code queue}: the queue's own if this application consumes it or marks it
     * producer-only, else the global one. Looking it up adds nothing to the options kept per queue.
     */
    public PayloadLimit payloadLimit(String queue) {
        QueueOptions known = options.get(queue);
        return known != null ? known.maxPayloadSize() : unconsumedPayloadLimit;
    }
}
