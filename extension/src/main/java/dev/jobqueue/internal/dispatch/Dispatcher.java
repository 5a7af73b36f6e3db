package dev.jobqueue.internal.dispatch;

import dev.jobqueue.internal.JndiNames;
import dev.jobqueue.internal.config.NodeName;
import dev.jobqueue.internal.config.QueueLimits;
import dev.jobqueue.internal.config.QueueOptions;
import dev.jobqueue.internal.consumer.ConsumerMethod;
import dev.jobqueue.internal.metrics.JobMetrics;
import dev.jobqueue.internal.store.ClaimStore;
import dev.jobqueue.internal.store.ClaimedJob;
import dev.jobqueue.internal.store.DatabaseReachability;
import dev.jobqueue.internal.store.LeaseStore;
import dev.jobqueue.internal.time.JobQueueClock;
import dev.jobqueue.internal.time.LeaseClock;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * Owns the queue workers of this node: starts one per consumed queue, routes wake-ups to them, and at
 * shutdown stops them, lets running jobs finish within a grace period, then interrupts and releases the rest.
 */
@ApplicationScoped
public class Dispatcher {

    private static final Logger LOG = Logger.getLogger(Dispatcher.class.getName());

    /** How long a stop waits for the consumers it interrupted to end. */
    static final Duration INTERRUPTED_WAIT = Duration.ofSeconds(5);

    private final Map<String, QueueWorker> workers = new ConcurrentHashMap<>();
    private volatile boolean stopping;
    @Inject
    @JobQueueClock
    Clock clock;

    @Resource(lookup = JndiNames.SCHEDULER)
    ScheduledExecutorService scheduler;

    @Resource(lookup = JndiNames.EXECUTOR)
    ExecutorService executor;

    @Inject
    LeaseClock leaseClock;

    @Inject
    NodeName node;

    @Inject
    ClaimStore claims;

    @Inject
    LeaseStore leases;

    @Inject
    JobExecutor jobExecutor;

    @Inject
    RunningJobs running;

    @Inject
    DatabaseReachability database;

    @Inject
    RunMode runMode;

    @Inject
    JobMetrics metrics;

    @Inject
    UnsettledLeases unsettled;

    public void start(ConsumerMethod consumer, QueueOptions options) {
        boolean automatic = runMode.automatic();
        QueueWorker worker = new QueueWorker(consumer, options, scheduler, executor, claims, leases, jobExecutor,
                running, clock, leaseClock, node.value(), database, metrics, unsettled, automatic);
        workers.put(options.queue(), worker);
        if (automatic) {
            worker.start();
        }
        LOG.info(() -> "jobqueue: consuming queue " + options.queue() + " with " + consumer.describe() + ", "
                + options.concurrency() + " at a time" + (automatic ? "" : ", only when a test drains it"));
    }

    /** The cluster-wide limits configured here for {@code queue}: none if this node does not consume it. */
    public QueueLimits configuredLimits(String queue) {
        QueueWorker worker = workers.get(queue);
        return worker == null ? QueueLimits.none() : worker.options().limits();
    }

    /** Whether this node consumes {@code queue}. */
    public boolean consumes(String queue) {
        return workers.containsKey(queue);
    }

    /** Claims and runs the queue's due jobs now, also when jobs do not run on their own; for the test kit. */
    public void runDueJobs(String queue) {
        QueueWorker worker = workers.get(queue);
        if (worker != null) {
            worker.wake();
        }
    }

    /**
     * When each queue's poller last ran and how late it may be: its health. A stopped poller reports null.
     *
     * @param lastPoll when it last polled, or null if stopped
     * @param bound    how long after that it counts as dead: three poll intervals plus two seconds
     */
    public record PollerHealth(Instant lastPoll, Duration bound) {
    }

    public Map<String, PollerHealth> pollerHealth() {
        Map<String, PollerHealth> health = new TreeMap<>();
        if (!runMode.automatic()) {
            return health;
        }
        workers.forEach((queue, worker) -> health.put(queue, new PollerHealth(worker.lastPoll(),
                worker.options().pollInterval().multipliedBy(3).plusSeconds(2))));
        return health;
    }

    /** Stops polling one queue on this node, as a crashed poller would; for tests and diagnosis. */
    public void stopPolling(String queue) {
        QueueWorker worker = workers.get(queue);
        if (worker != null) {
            worker.stop();
        }
    }

    /** Starts polling a queue stopped with {@link #stopPolling}. */
    public void startPolling(String queue) {
        QueueWorker worker = workers.get(queue);
        if (worker != null) {
            worker.start();
        }
    }

    /** Polls the queue now if this node consumes it and runs jobs on its own; a no-op otherwise. */
    public void wake(String queue) {
        wake(queue, QueueWorker::wake);
    }

    private void wake(String queue, Consumer<QueueWorker> how) {
        QueueWorker worker = workers.get(queue);
        if (worker != null && runMode.automatic()) {
            how.accept(worker);
        }
    }

    /**
     * Polls the queue now, reading it from its first due job, if this node consumes it and runs jobs on its own:
     * jobs due before its last claim's may have become claimable.
     */
    public void rewind(String queue) {
        wake(queue, QueueWorker::rewind);
    }

    /** No claim of {@code queue} on this node until {@code until}, and its claimed jobs that have not started go back. */
    public void backOff(String queue, Instant until) {
        QueueWorker worker = workers.get(queue);
        if (worker != null) {
            worker.backOff(until);
        }
    }

    /**
     * An admin resumed {@code queue}: a backoff its consumer asked for on this node ends here too, and the queue is
     * polled now. Other nodes' claims read the resume from the database.
     */
    public void resumed(String queue) {
        QueueWorker worker = workers.get(queue);
        if (worker != null) {
            worker.endBackoff();
        }
        wake(queue);
    }

    /** Polls the queue when a retry this node scheduled is due, if jobs run on their own. */
    public void wakeWhenRetryDue(String queue, Instant runAt) {
        QueueWorker worker = workers.get(queue);
        if (worker != null && runMode.automatic()) {
            worker.wakeWhenRetryDue(runAt);
        }
    }

    /**
     * Holds a runner of this node for a job being put on {@code queue}, if this node consumes the queue and has
     * nothing else to do for it; see {@link LocalStart}.
     */
    public Optional<LocalStart> reserveStart(String queue) {
        QueueWorker worker = workers.get(queue);
        return worker == null || !runMode.automatic() ? Optional.empty() : worker.reserve();
    }

    /** Polls every queue this node consumes now, if jobs run on their own. */
    public void wakeAll() {
        if (runMode.automatic()) {
            workers.values().forEach(QueueWorker::wake);
        }
    }

    /** Whether this node has begun to stop: a call that ends now makes no call of its jobs again. */
    public boolean stopping() {
        return stopping;
    }

    public void stop(Duration grace) {
        stopping = true;
        workers.values().forEach(QueueWorker::stop);
        List<ClaimedJob> unstarted = workers.values().stream().flatMap(worker -> worker.takeBuffered().stream())
                .toList();
        release(unstarted, "claimed jobs that had not started");
        unstarted.forEach(running::finished);
        Instant deadline = clock.instant().plus(grace);
        while (!running.isEmpty() && clock.instant().isBefore(deadline)) {
            workers.values().forEach(QueueWorker::flushSucceeded);
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        workers.values().forEach(QueueWorker::flushSucceeded);
        List<RunningJobs.Entry> unfinished = List.copyOf(running.snapshot());
        // Release first, then interrupt: an interrupted consumer's own writes are then fenced off, and the
        // released jobs keep their attempt.
        release(unfinished.stream().map(RunningJobs.Entry::job).toList(), "jobs still running after the grace period");
        unfinished.stream().map(RunningJobs.Entry::thread).filter(thread -> thread != null)
                .forEach(Thread::interrupt);
        awaitInterrupted(unfinished);
    }

    /**
     * Waits, up to {@link #INTERRUPTED_WAIT}, for the consumers just interrupted to end, so that their transactions
     * roll back and their attempts end while the application is still there. WildFly removes the application as
     * soon as the stop returns: a consumer that ran on past that found its beans gone and left its transaction open
     * on the executor's thread, holding its locks until the transaction timed out. Real time, not the clock: this
     * waits for threads. The thread that stops the dispatcher is not waited for.
     */
    private void awaitInterrupted(List<RunningJobs.Entry> interrupted) {
        Set<Thread> threads = interrupted.stream().map(RunningJobs.Entry::thread)
                .filter(thread -> thread != null && thread != Thread.currentThread()).collect(Collectors.toSet());
        long deadline = System.nanoTime() + INTERRUPTED_WAIT.toNanos();
        while (running.snapshot().stream().anyMatch(entry -> threads.contains(entry.thread()))
                && System.nanoTime() - deadline < 0) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void release(List<ClaimedJob> jobs, String what) {
        if (jobs.isEmpty()) {
            return;
        }
        try {
            int released = leases.release(jobs);
            LOG.info("jobqueue: released " + released + " " + what + " at shutdown, for prompt retry");
        } catch (RuntimeException e) {
            LOG.warning("jobqueue: cannot release " + jobs.size() + " " + what
                    + " at shutdown; they run again once their leases expire: " + e);
        }
    }
}
