package dev.jobqueue.internal.lifecycle;

import dev.jobqueue.internal.Messages;
import dev.jobqueue.internal.config.NodeSettings;
import dev.jobqueue.internal.config.QueueOptions;
import dev.jobqueue.internal.consumer.ConsumerMethod;
import dev.jobqueue.internal.discovery.JobQueueExtension;
import dev.jobqueue.internal.dispatch.Dispatcher;
import dev.jobqueue.internal.dispatch.ProgressLog;
import dev.jobqueue.internal.dispatch.RunMode;
import dev.jobqueue.internal.health.HealthSources;
import dev.jobqueue.internal.time.JobQueueClock;
import dev.jobqueue.internal.watch.EarlierLeases;
import dev.jobqueue.internal.watch.LeaseKeeper;
import dev.jobqueue.internal.wake.NotifyListener;
import dev.jobqueue.internal.wake.WakeBroadcaster;
import dev.jobqueue.internal.watch.RetentionPurger;
import dev.jobqueue.internal.watch.StuckJobMonitor;
import dev.jobqueue.internal.wake.WakeMessages;
import dev.jobqueue.internal.metrics.JobMetrics;
import dev.jobqueue.internal.metrics.QueueDepths;
import dev.jobqueue.internal.schedule.ScheduleDeclarations;
import dev.jobqueue.internal.schedule.ScheduleRunner;
import dev.jobqueue.internal.store.IsolationCheck;
import dev.jobqueue.internal.store.SchemaCheck;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.BeforeDestroyed;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.logging.Logger;

/**
 * Starts jobqueue when the application starts: checks the schema, watches the leases an earlier run of this node
 * left, then starts a worker for every enabled queue, the node's watch tasks and, on PostgreSQL, the sender that
 * tells other nodes of jobs put here and the listener for jobs put on other nodes. Stops it, gracefully, before
 * the application stops.
 */
@ApplicationScoped
public class JobQueueRuntime {

    private static final Logger LOG = Logger.getLogger(JobQueueRuntime.class.getName());

    @Inject
    JobQueueExtension extension;

    @Inject
    SchemaCheck schema;

    @Inject
    IsolationValidation isolationValidation;

    @Inject
    IsolationCheck isolationCheck;

    @Inject
    Dispatcher dispatcher;

    @Inject
    LeaseKeeper leaseKeeper;

    @Inject
    @JobQueueClock
    Clock clock;

    /** Observed by the health checks, if the server has MicroProfile Health (see {@link HealthSources}). */
    @Inject
    Event<HealthSources> healthSources;

    @Inject
    EarlierLeases earlierLeases;

    @Inject
    StuckJobMonitor stuckJobMonitor;

    @Inject
    RetentionPurger retentionPurger;

    @Inject
    NotifyListener notifyListener;

    @Inject
    WakeBroadcaster wakeBroadcaster;

    @Inject
    WakeMessages wakeMessages;

    @Inject
    QueueDepths depths;

    @Inject
    ProgressLog progressLog;

    @Inject
    JobMetrics metrics;

    @Inject
    NodeSettings settings;

    @Inject
    RunMode runMode;

    @Inject
    ScheduleDeclarations scheduleDeclarations;

    @Inject
    ScheduleRunner scheduleRunner;

    /** Set while the start waits for the servlet context (see {@link #start}). */
    private volatile boolean waitingForServletContext;

    /**
     * Starts jobqueue with the application. Payara cannot give an application without EJB its {@code java:comp}
     * resources while CDI starts it (the datasource of every store): there the start waits until the servlet
     * context is initialized, which {@link JobQueueStartListener} reports.
     */
    void start(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        try {
            isolationCheck.prepare();
        } catch (RuntimeException datasourceNotYetThere) {
            LOG.fine("jobqueue: the datasource cannot be looked up yet; starting with the servlet context");
            waitingForServletContext = true;
            return;
        }
        begin();
    }

    /** The servlet context is initialized: starts jobqueue if it waited for that. */
    public void servletContextInitialized() {
        if (waitingForServletContext) {
            waitingForServletContext = false;
            begin();
        }
    }

    private void begin() {
        if (!runMode.automatic()) {
            LOG.warning(Messages.testKitPresent());
        }
        if (isolationValidation.deferred()) {
            isolationCheck.verify();
        }
        healthSources.fire(new HealthSources(schema, dispatcher, leaseKeeper, clock));
        // First, so that no job put from now on, by a consumer or a schedule, misses telling the other nodes.
        wakeBroadcaster.start();
        metrics.ownQueues(extension.ownQueues());
        schema.verify(settings.schemaCreate());
        leaseKeeper.readDatabaseClock();
        earlierLeases.start();
        Set<String> consumedQueues = extension.consumers().stream().map(ConsumerMethod::queue).collect(Collectors.toSet());
        scheduleDeclarations.start(extension.declaredSchedules(), consumedQueues, settings.undeclaredScheduleGrace());
        List<QueueOptions> consumed = extension.consumers().stream()
                .map(consumer -> extension.options(consumer.queue()))
                .filter(options -> {
                    if (!options.enabled()) {
                        LOG.info(() -> "jobqueue: queue " + options.queue() + " is disabled on this node;"
                                + " jobs can be put on it, and other nodes run them");
                    }
                    return options.enabled();
                }).toList();
        for (ConsumerMethod consumer : extension.consumers()) {
            QueueOptions options = extension.options(consumer.queue());
            if (options.enabled()) {
                dispatcher.start(consumer, options);
            }
        }
        if (!consumed.isEmpty()) {
            leaseKeeper.start(extension::options, shortest(consumed.stream().map(QueueOptions::lease).toList()));
            stuckJobMonitor.start(extension::options,
                    shortest(consumed.stream().map(QueueOptions::maxExecuteTime).toList()));
            retentionPurger.start(consumed);
            if (wakeMessages.enabled()) {
                Duration poll = shortest(consumed.stream().map(QueueOptions::pollInterval).toList());
                notifyListener.start(poll.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : poll);
            }
        }
        for (ConsumerMethod consumer : extension.consumers()) {
            String queue = consumer.queue();
            metrics.registerGauges(queue, state -> depths.depth(queue, state),
                    stuckJobMonitor::stuckCount);
        }
        depths.start();
        scheduleRunner.start(consumedQueues);
    }

    void stop(@Observes @BeforeDestroyed(ApplicationScoped.class) Object ignored) {
        earlierLeases.stop();
        scheduleRunner.stop();
        scheduleDeclarations.stop();
        notifyListener.stop();
        depths.stop();
        retentionPurger.stop();
        stuckJobMonitor.stop();
        dispatcher.stop(settings.shutdownGrace());
        progressLog.stop();
        leaseKeeper.stop();
        wakeBroadcaster.stop();
    }

    /** The options in force for {@code queue}. */
    public QueueOptions options(String queue) {
        return extension.options(queue);
    }

    private static Duration shortest(List<Duration> durations) {
        return durations.stream().min(Duration::compareTo).orElseThrow();
    }
}
