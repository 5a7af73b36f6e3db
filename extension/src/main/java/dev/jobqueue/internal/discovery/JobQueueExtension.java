package dev.jobqueue.internal.discovery;

import dev.jobqueue.Consumer;
import dev.jobqueue.Occurrence;
import dev.jobqueue.Recurring;
import dev.jobqueue.internal.cron.DeclaredSchedule;
import dev.jobqueue.internal.cron.ScheduleDefinition;
import dev.jobqueue.internal.Messages;
import dev.jobqueue.internal.QueueNames;
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
import jakarta.enterprise.inject.spi.AnnotatedMethod;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeforeBeanDiscovery;
import jakarta.enterprise.inject.spi.DefinitionException;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessManagedBean;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.logging.Logger;
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
    private static final Logger LOG = Logger.getLogger(JobQueueExtension.class.getName());
    private static final String OWN_FILE = "META-INF/microprofile-config.properties";

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
        Bean<?> bean = event.getBean();
        for (AnnotatedMethod<? super T> annotated : event.getAnnotatedBeanClass().getMethods()) {
            Consumer annotation = annotated.getAnnotation(Consumer.class);
            if (annotation == null) {
                if (annotated.isAnnotationPresent(Recurring.class)) {
                    event.addDefinitionError(new DefinitionException(Messages.invalidSignature(
                            annotated.getJavaMember(), "@Recurring needs @Consumer on the same method")));
                }
                continue;
            }
            Method method = annotated.getJavaMember();
            if (!QueueNames.isValid(annotation.queue())) {
                event.addDefinitionError(new DefinitionException(Messages.invalidQueueName(annotation.queue(), method)));
                continue;
            }
            Optional<String> problem = ConsumerSignature.problemWith(method, annotation.jobsPerCall() != 0);
            if (problem.isPresent()) {
                event.addDefinitionError(new DefinitionException(Messages.invalidSignature(method, problem.get())));
                continue;
            }
            Optional<Class<?>> referenceType = referenceType(bean, method);
            if (referenceType.isEmpty()) {
                event.addDefinitionError(new DefinitionException(Messages.invalidSignature(method,
                        "it is not a business method of the bean's types " + bean.getTypes())));
                continue;
            }
            if (annotated.isAnnotationPresent(Recurring.class) && method.getGenericParameterTypes()[0] != Occurrence.class) {
                event.addDefinitionError(new DefinitionException(Messages.invalidSignature(method,
                        "a @Recurring consumer takes an " + Occurrence.class.getName() + " as its payload")));
                continue;
            }
            found.add(consumerMethod(annotation, bean, method, referenceType.get()));
        }
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
        resolveSchedules(lookup, badValues);
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
        ConfigKeyCheck.problems(ownKeys(), ownQueues(), declaredScheduleNames())
                .forEach(problem -> event.addDeploymentProblem(new DeploymentException(problem)));
        // A value of "" counts as set (an empty password); one from the application's own file does not, since
        // the server's datasource cannot see it.
        DatasourceVariables.problems(lookup.apply(DatasourceVariables.MARKER), variable -> {
            ConfigValue value = config.getConfigValue(variable);
            return value.getValue() != null && !isApplicationsOwn(value.getSourceName());
        }).forEach(problem -> event.addDeploymentProblem(new DeploymentException(problem)));
    }

    private void resolveQueueOptions(Set<String> badValues) {
        for (ConsumerMethod consumer : consumers.values()) {
            try {
                QueueOptions resolved = resolver.resolve(consumer.queue(), AnnotatedOptions.of(consumer.annotation()),
                        consumer.describe());
                options.put(consumer.queue(), resolved);
                batchProblem(consumer, resolved).ifPresent(badValues::add);
            } catch (IllegalArgumentException e) {
                e.getMessage().lines().forEach(badValues::add);
            }
        }
    }

    private void resolveSchedules(Function<String, Optional<String>> lookup, Set<String> badValues) {
        for (ConsumerMethod consumer : consumers.values()) {
            Recurring recurring = consumer.method().getAnnotation(Recurring.class);
            if (recurring != null) {
                try {
                    ScheduleDefinition schedule = DeclaredSchedule.resolve(recurring, consumer.queue(),
                            consumer.describe(), lookup);
                    if (schedules.putIfAbsent(schedule.name(), schedule) != null) {
                        badValues.add(Messages.duplicateSchedule(schedule.name()));
                    }
                } catch (IllegalArgumentException e) {
                    badValues.add(e.getMessage());
                }
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

    /**
     * The keys of the application's own files, the only ones checked for typos: environment variables, system
     * properties and server variables are shared by every application on the server. Read from the files
     * themselves, every {@value #OWN_FILE} the application's class loader sees: servers name their config sources
     * differently (Liberty after the file, Payara "Properties" for each).
     */
    private static Set<String> ownKeys() {
        Set<String> own = new TreeSet<>();
        try {
            for (URL file : Collections.list(Thread.currentThread().getContextClassLoader().getResources(OWN_FILE))) {
                Properties properties = new Properties();
                try (InputStream in = file.openStream()) {
                    properties.load(in);
                }
                own.addAll(properties.stringPropertyNames());
            }
        } catch (IOException e) {
            LOG.warning("jobqueue: cannot read the application's " + OWN_FILE + " to check its keys: " + e);
        }
        return own;
    }

    /** Whether a config source is one of the application's files, by its name as Liberty gives it. */
    private static boolean isApplicationsOwn(String configSource) {
        return configSource != null && configSource.contains("microprofile-config.properties");
    }

    /** The names of the schedules declared with {@code @Recurring}, whether or not their options are valid. */
    private Set<String> declaredScheduleNames() {
        Set<String> names = new TreeSet<>();
        for (ConsumerMethod consumer : consumers.values()) {
            Recurring recurring = consumer.method().getAnnotation(Recurring.class);
            if (recurring != null) {
                names.add(DeclaredSchedule.nameOf(recurring, consumer.queue()));
            }
        }
        return names;
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

    private static Optional<Class<?>> referenceType(Bean<?> bean, Method method) {
        if (bean.getTypes().contains(bean.getBeanClass())) {
            return Optional.<Class<?>>of(bean.getBeanClass());
        }
        return bean.getTypes().stream()
                .filter(type -> type instanceof Class<?> c && c.isInterface() && declares(c, method))
                .<Class<?>>map(type -> (Class<?>) type).findFirst();
    }

    private static boolean declares(Class<?> type, Method method) {
        try {
            type.getMethod(method.getName(), method.getParameterTypes());
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    /**
     * A batch consumer must be transactional: its one transaction is what makes a batch's effects commit exactly
     * once. Configuration may change a batch consumer's jobs-per-call, but cannot make a single-job one a batch one.
     * Several jobs in one transaction likewise need a transactional consumer, of one job per call.
     */
    private static Optional<String> batchProblem(ConsumerMethod consumer, QueueOptions options) {
        if (consumer.batch() && !options.transactional()) {
            return Optional.of(Messages.batchOptionMismatch(consumer.describe(), "a batch consumer (jobsPerCall is"
                    + " set) must be transactional: its jobs are marked DONE in the transaction of its call"));
        }
        if (!consumer.batch() && options.jobsPerCall() != 1) {
            return Optional.of(Messages.batchOptionMismatch(consumer.describe(), "jobs-per-call is "
                    + options.jobsPerCall() + " in the configuration, but the consumer takes one payload; declare"
                    + " jobsPerCall on @Consumer and take a java.util.List of payloads to make it a batch consumer"));
        }
        if (options.jobsPerTransaction() != 1 && (consumer.batch() || !options.transactional())) {
            return Optional.of(Messages.batchOptionMismatch(consumer.describe(), "jobs-per-transaction is "
                    + options.jobsPerTransaction() + ", but the consumer is " + (consumer.batch()
                    ? "a batch consumer, whose jobs-per-call already sets how many jobs share its transaction"
                    : "not transactional, so there is no transaction for its jobs to share")));
        }
        return Optional.empty();
    }

    private static ConsumerMethod consumerMethod(Consumer annotation, Bean<?> bean, Method method,
            Class<?> referenceType) {
        Method invocable;
        try {
            invocable = referenceType.getMethod(method.getName(), method.getParameterTypes());
        } catch (NoSuchMethodException e) {
            invocable = method;
        }
        invocable.setAccessible(true);
        boolean batch = annotation.jobsPerCall() != 0;
        return new ConsumerMethod(annotation.queue(), annotation, bean, method, referenceType, invocable,
                ConsumerSignature.payloadType(method, batch), method.getParameterCount() == 2, batch);
    }
}
