package dev.jobqueue.internal.admin;

import dev.jobqueue.JobAdmin;
import dev.jobqueue.JobId;
import dev.jobqueue.internal.QueueNames;
import dev.jobqueue.internal.dispatch.Dispatcher;
import dev.jobqueue.internal.store.AdminStore;
import dev.jobqueue.internal.store.Groups;
import dev.jobqueue.internal.store.JobRow;
import dev.jobqueue.internal.store.JobState;
import dev.jobqueue.internal.store.QueueControlRow;
import dev.jobqueue.internal.time.JobQueueClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
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
    AdminStore store;

    @Inject
    Groups groups;

    @Inject
    Dispatcher dispatcher;

    @Inject
    @JobQueueClock
    Clock clock;

    @Override
    public List<QueueStats> queues() {
        Map<String, Map<JobState, Long>> counts = store.count(EnumSet.allOf(JobState.class)).stream()
                .collect(Collectors.groupingBy(AdminStore.StateCount::queue,
                        Collectors.toMap(AdminStore.StateCount::state, AdminStore.StateCount::count)));
        Map<String, Boolean> paused = store.queueControls().stream()
                .collect(Collectors.toMap(QueueControlRow::getName, QueueControlRow::isPaused));
        Set<String> names = new TreeSet<>(counts.keySet());
        names.addAll(paused.keySet());
        return names.stream().map(queue -> {
            Function<JobState, Long> count = state -> counts.getOrDefault(queue, Map.of()).getOrDefault(state, 0L);
            return new QueueStats(queue, count.apply(JobState.WAITING), count.apply(JobState.PENDING), count.apply(JobState.RUNNING),
                    count.apply(JobState.DONE), count.apply(JobState.FAILED), paused.getOrDefault(queue, false));
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
        return store.job(id.toString()).map(row -> new JobDetails(summary(row), row.getPayload(),
                store.errors(row.getId()).stream()
                        .map(error -> new AttemptError(error.getAttempt(), error.getFailedAt(), error.getError()))
                        .toList()));
    }

    @Override
    public boolean retry(JobId id) {
        boolean retried = store.retryJob(id.toString(), clock.instant());
        if (retried) {
            LOG.info("jobqueue admin: job " + id + " is PENDING again with fresh attempts");
            store.job(id.toString()).ifPresent(row -> dispatcher.wake(row.getQueue()));
        }
        return retried;
    }

    @Override
    public int retryFailed(String queue) {
        QueueNames.requireValid(queue);
        int retried = store.retryQueue(queue, clock.instant());
        LOG.info("jobqueue admin: " + retried + " FAILED jobs of queue " + queue + " are PENDING again");
        dispatcher.wake(queue);
        return retried;
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
        if (olderThan.isNegative()) {
            throw new IllegalArgumentException("olderThan must not be negative, was " + olderThan);
        }
        int purged = store.purgeFailed(queue, clock.instant().minus(olderThan));
        LOG.info("jobqueue admin: purged " + purged + " FAILED jobs of queue " + queue + " older than " + olderThan);
        return purged;
    }

    @Override
    public void pause(String queue) {
        store.setPaused(QueueNames.requireValid(queue), true, clock.instant());
        LOG.info("jobqueue admin: queue " + queue + " is paused on every node");
    }

    @Override
    public void resume(String queue) {
        store.setPaused(QueueNames.requireValid(queue), false, clock.instant());
        LOG.info("jobqueue admin: queue " + queue + " is resumed on every node");
        dispatcher.wake(queue);
    }

    @Override
    public GroupProgress group(String group) {
        Objects.requireNonNull(group, "group");
        Map<JobState, Long> counts = groups.counts(group);
        return new GroupProgress(group, counts.get(JobState.WAITING), counts.get(JobState.PENDING),
                counts.get(JobState.RUNNING), counts.get(JobState.DONE), counts.get(JobState.FAILED));
    }

    private static JobSummary summary(JobRow row) {
        return new JobSummary(JobId.parse(row.getId()), row.getQueue(), row.getState().name(),
                row.getAttempts(), row.getCreatedAt(), row.getRunAt(), row.getFinishedAt(), row.getLastError());
    }
}
