package dev.jobqueue.internal.admin;

import dev.jobqueue.CancelOutcome;
import dev.jobqueue.JobAdmin;
import dev.jobqueue.JobId;
import dev.jobqueue.JobOptions;
import dev.jobqueue.ScheduleInfo;
import dev.jobqueue.internal.Messages;
import dev.jobqueue.internal.QueueNames;
import dev.jobqueue.internal.config.Durations;
import dev.jobqueue.internal.config.QueueLimits;
import dev.jobqueue.internal.config.RateLimit;
import dev.jobqueue.internal.discovery.JobQueueExtension;
import dev.jobqueue.internal.dispatch.Dispatcher;
import dev.jobqueue.internal.schedule.ScheduleControl;
import dev.jobqueue.internal.store.AdminStore;
import dev.jobqueue.internal.store.RetryOutcome;
import dev.jobqueue.internal.store.Groups;
import dev.jobqueue.internal.store.ErrorHistory;
import dev.jobqueue.internal.store.JobListing;
import dev.jobqueue.internal.store.JobState;
import dev.jobqueue.internal.store.QueueControlRow;
import dev.jobqueue.internal.time.JobQueueClock;
import dev.jobqueue.internal.time.LeaseClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/** The {@link JobAdmin} bean. Every change is logged, with the job or queue it touched. */
@ApplicationScoped
public class DefaultJobAdmin implements JobAdmin {

    private static final Logger LOG = Logger.getLogger(DefaultJobAdmin.class.getName());
    static final int MAX_PAGE_SIZE = 500;

    @Inject
    ScheduleControl scheduleControl;

    @Inject
    AdminStore store;

    @Inject
    Groups groups;

    @Inject
    ErrorHistory errorHistory;

    @Inject
    Dispatcher dispatcher;

    @Inject
    JobCancels cancels;

    @Inject
    LeaseClock leaseClock;

    @Inject
    JobQueueExtension extension;

    @Inject
    @JobQueueClock
    Clock clock;

    @Override
    public List<QueueStats> queues() {
        Map<String, Map<JobState, Long>> counts = store.count(EnumSet.allOf(JobState.class)).stream()
                .collect(Collectors.groupingBy(AdminStore.StateCount::queue,
                        Collectors.toMap(AdminStore.StateCount::state, AdminStore.StateCount::count)));
        Map<String, QueueControlRow> controls = store.queueControls().stream()
                .collect(Collectors.toMap(QueueControlRow::getName, Function.identity()));
        Set<String> names = new TreeSet<>(counts.keySet());
        names.addAll(controls.keySet());
        Instant now = leaseClock.now();
        return names.stream().map(queue -> {
            Function<JobState, Long> count = state -> counts.getOrDefault(queue, Map.of()).getOrDefault(state, 0L);
            QueueControlRow control = controls.get(queue);
            return new QueueStats(queue, count.apply(JobState.WAITING), count.apply(JobState.PENDING),
                    count.apply(JobState.RUNNING), count.apply(JobState.DONE), count.apply(JobState.FAILED),
                    count.apply(JobState.CANCELLED), control != null && control.paused(), FlowControls.of(dispatcher.configuredLimits(queue), control,
                            now));
        }).toList();
    }

    @Override
    public List<JobSummary> failed(String queue, int page, int size) {
        if (queue != null) {
            QueueNames.requireValid(queue);
        }
        if (page < 0) {
            throw new IllegalArgumentException("page must be 0 or more, was " + page);
        }
        if (size < 1 || size > MAX_PAGE_SIZE) {
            throw new IllegalArgumentException("size must be between 1 and " + MAX_PAGE_SIZE + ", was " + size);
        }
        return store.failed(queue, Math.multiplyExact(page, size), size).stream().map(DefaultJobAdmin::summary)
                .toList();
    }

    @Override
    public Optional<JobDetails> job(JobId id) {
        return job(id, Integer.MAX_VALUE);
    }

    @Override
    public Optional<JobDetails> job(JobId id, int maxPayloadChars) {
        if (maxPayloadChars < 0) {
            throw new IllegalArgumentException("maxPayloadChars must be 0 or more, was " + maxPayloadChars);
        }
        return store.view(id.toString(), maxPayloadChars).map(view -> new JobDetails(summary(view.listing()),
                view.payload(), view.truncated(), view.payloadLength(), errorPage(id, 0, ERRORS_SHOWN),
                errorHistory.count(id.toString()), view.progress()));
    }

    @Override
    public List<AttemptError> errors(JobId id, int page, int size) {
        if (page < 0) {
            throw new IllegalArgumentException("page must be 0 or more, was " + page);
        }
        if (size < 1 || size > MAX_PAGE_SIZE) {
            throw new IllegalArgumentException("size must be between 1 and " + MAX_PAGE_SIZE + ", was " + size);
        }
        return errorPage(id, Math.multiplyExact(page, size), size);
    }

    private List<AttemptError> errorPage(JobId id, int offset, int size) {
        return errorHistory.page(id.toString(), offset, size).stream()
                .map(error -> new AttemptError(error.getAttempt(), error.getFailedAt(), error.getError()))
                .toList();
    }

    @Override
    public boolean retry(JobId id) {
        AdminStore.RetryResult result = store.retryJob(id.toString(), clock.instant());
        if (result.failedDependency().isPresent()) {
            throw new FailedDependencyException(
                    Messages.retryBlockedByFailedDependency(id.toString(), result.failedDependency().get()));
        }
        boolean retried = result.retried();
        if (retried) {
            LOG.info("jobqueue admin: job " + id + " is PENDING again with fresh attempts");
            store.job(id.toString()).ifPresent(row -> dispatcher.rewind(row.getQueue()));
        }
        return retried;
    }

    @Override
    public CancelOutcome cancel(JobId id) {
        return cancels.cancel(id);
    }

    @Override
    public int retryFailed(String queue) {
        return retryQueue(queue).retried();
    }

    /** Retries every FAILED job of a queue, as {@link #retryFailed} does, and tells which it passed over and why. */
    public RetryOutcome retryQueue(String queue) {
        QueueNames.requireValid(queue);
        RetryOutcome outcome = store.retryQueue(queue, clock.instant());
        LOG.info("jobqueue admin: " + outcome.retried() + " FAILED jobs of queue " + queue + " are PENDING again; "
                + outcome.skipped() + " passed over");
        dispatcher.rewind(queue);
        return outcome;
    }

    @Override
    public boolean delete(JobId id) {
        boolean deleted = store.delete(id.toString());
        if (deleted) {
            LOG.info("jobqueue admin: job " + id + " deleted");
        }
        return deleted;
    }

    @Override
    public int purgeFailed(String queue, Duration olderThan) {
        QueueNames.requireValid(queue);
        if (olderThan == null) {
            throw new IllegalArgumentException(Messages.olderThanRequired());
        }
        if (olderThan.isNegative() || olderThan.compareTo(Durations.MAX) > 0) {
            throw new IllegalArgumentException("olderThan must be between 0 and " + Durations.MAX.toDays()
                    + " days, was " + olderThan);
        }
        int purged = store.purgeFailed(queue, clock.instant().minus(olderThan));
        LOG.info("jobqueue admin: purged " + purged + " FAILED jobs of queue " + queue + " older than " + olderThan);
        return purged;
    }

    @Override
    public void pause(String queue) {
        if (!store.pause(QueueNames.requireValid(queue), consumedHere(queue), clock.instant())) {
            throw new UnknownQueueException(Messages.unknownQueue(queue));
        }
        LOG.info("jobqueue admin: queue " + queue + " is paused on every node");
    }

    @Override
    public void resume(String queue) {
        if (!store.resume(QueueNames.requireValid(queue), consumedHere(queue), clock.instant())) {
            throw new UnknownQueueException(Messages.unknownQueue(queue));
        }
        LOG.info("jobqueue admin: queue " + queue + " is resumed on every node");
        dispatcher.resumed(queue);
    }

    @Override
    public void setLimits(String queue, String rateLimit, Integer maxRunning) {
        QueueNames.requireValid(queue);
        String rate = rateLimit == null ? null : rateLimit.trim();
        if (rate != null && !QueueLimits.NONE.equals(rate)) {
            rate = RateLimit.parse(rate).toString();
        }
        if (maxRunning != null && maxRunning < 0) {
            throw new IllegalArgumentException("maxRunning must be at least 0 (0 for no limit), was " + maxRunning);
        }
        if (!store.setLimits(queue, rate, maxRunning, consumedHere(queue), clock.instant())) {
            throw new UnknownQueueException(Messages.unknownQueue(queue));
        }
        LOG.info("jobqueue admin: queue " + queue + " has on every node the rate limit "
                + (rate == null ? "of its configuration" : rate) + " and max-running "
                + (maxRunning == null ? "of its configuration" : maxRunning));
        dispatcher.wake(queue);
    }

    @Override
    public GroupProgress group(String group) {
        requireValidGroup(group);
        Map<JobState, Long> counts = groups.counts(group);
        return new GroupProgress(group, counts.get(JobState.WAITING), counts.get(JobState.PENDING),
                counts.get(JobState.RUNNING), counts.get(JobState.DONE), counts.get(JobState.FAILED),
                counts.get(JobState.CANCELLED));
    }

    /**
     * Checks a group name by the rule {@link JobOptions#group(String)} applies at put, so that every name a job
     * can carry is accepted here and nothing else.
     *
     * @throws IllegalArgumentException naming the problem
     */
    static String requireValidGroup(String group) {
        Objects.requireNonNull(group, "group");
        try {
            JobOptions.defaults().group(group);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(Messages.invalidGroupName(group, e.getMessage()), e);
        }
        return group;
    }

    /** Whether a {@code @Consumer} of this application consumes the queue, on this node or not. */
    private boolean consumedHere(String queue) {
        return extension.consumers().stream().anyMatch(consumer -> consumer.queue().equals(queue));
    }

    private static JobSummary summary(JobListing job) {
        return new JobSummary(JobId.parse(job.id()), job.queue(), job.state().name(), job.attempts(),
                job.createdAt(), job.runAt(), job.finishedAt(), job.lastError());
    }

    @Override
    public List<ScheduleInfo> schedules() {
        return scheduleControl.list();
    }

    @Override
    public JobId triggerSchedule(String name) {
        scheduleControl.requireExists(name);
        JobId id = scheduleControl.trigger(name);
        LOG.info(() -> "jobqueue: schedule " + name + " triggered by an operator: job " + id);
        return id;
    }

    @Override
    public void pauseSchedule(String name) {
        scheduleControl.requireExists(name);
        scheduleControl.pause(name);
        LOG.info(() -> "jobqueue: schedule " + name + " paused");
    }

    @Override
    public void resumeSchedule(String name) {
        scheduleControl.requireExists(name);
        scheduleControl.resume(name);
        LOG.info(() -> "jobqueue: schedule " + name + " resumed");
    }
}
