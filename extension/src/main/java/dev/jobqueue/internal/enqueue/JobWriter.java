package dev.jobqueue.internal.enqueue;

import dev.jobqueue.DuplicateJobException;
import dev.jobqueue.DuplicatePolicy;
import dev.jobqueue.InvalidPayloadException;
import dev.jobqueue.JobId;
import dev.jobqueue.internal.Messages;
import dev.jobqueue.internal.config.PayloadLimit;
import dev.jobqueue.internal.discovery.JobQueueExtension;
import dev.jobqueue.internal.dispatch.Dispatcher;
import dev.jobqueue.internal.dispatch.LocalStart;
import dev.jobqueue.internal.wake.WakeBroadcaster;
import dev.jobqueue.internal.metrics.JobMetrics;
import dev.jobqueue.internal.payload.PayloadCodec;
import dev.jobqueue.internal.store.EnqueueStore;
import dev.jobqueue.internal.store.JobState;
import dev.jobqueue.internal.store.KeyHolder;
import dev.jobqueue.internal.store.NewJob;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.util.List;
import java.util.Optional;

/**
 * Writes a job in the caller's transaction, or in a new one, and after commit wakes the local poller and, on
 * PostgreSQL, the other nodes ({@link WakeBroadcaster}). A dedupe key is enforced by the database's unique
 * index: the insert is tried first, and only if the key is held is its holder read, locked, and handled by the
 * put's {@link DuplicatePolicy}.
 *
 * <p>A job due now, with no dedupe key, ordering key or dependency, put while this node consumes its queue and
 * has nothing else to do for it, is written RUNNING under a lease of this node and starts here once the put
 * commits, without waiting for a claim (see {@link LocalStart}).
 */
@ApplicationScoped
public class JobWriter {

    /** A holder that finishes between the failed insert and the read frees the key; then the insert is retried. */
    private static final int KEY_RACE_RETRIES = 5;

    @Inject
    EnqueueStore store;

    @Inject
    Dispatcher dispatcher;

    @Inject
    JobMetrics metrics;

    @Inject
    WakeBroadcaster broadcaster;

    @Inject
    JobQueueExtension extension;

    @Resource
    TransactionSynchronizationRegistry transactions;

    /**
     * @return the id of the new job, or of the job that holds its dedupe key
     * @throws DuplicateJobException if the key is held and the policy refuses the put; the caller's transaction
     *                               is left as it was
     */
    @Transactional(value = TxType.REQUIRED,
            dontRollbackOn = {DuplicateJobException.class, InvalidPayloadException.class})
    public JobId write(NewJob job, DuplicatePolicy policy) {
        requireWithinSizeLimit(job);
        if (mayStartOnPut(job) && insertStartingHere(job)) {
            return JobId.parse(job.id());
        }
        for (int attempt = 0; attempt < KEY_RACE_RETRIES; attempt++) {
            if (store.insert(job)) {
                created(job, true);
                return JobId.parse(job.id());
            }
            Optional<KeyHolder> holder = store.lockKeyHolder(job.queue(), job.dedupeKey());
            if (holder.isPresent()) {
                return onDuplicate(job, policy, holder.get());
            }
        }
        throw new IllegalStateException(Messages.dedupeKeyRace(job.queue(), job.dedupeKey(), KEY_RACE_RETRIES));
    }

    /**
     * Refuses a payload over its queue's {@code max-payload-size} before anything is written, leaving the caller's
     * transaction usable: a claim of a batch of such jobs, or a listing of them, would hold them all in memory.
     */
    public void requireWithinSizeLimit(NewJob job) {
        PayloadLimit limit = extension.payloadLimit(job.queue());
        long size = PayloadCodec.utf8Size(job.payload(), limit.bytes());
        if (size > limit.bytes()) {
            throw new InvalidPayloadException(
                    Messages.payloadTooLarge(job.queue(), size, limit.bytes(), limit.setBy()), null);
        }
    }

    private static boolean mayStartOnPut(NewJob job) {
        return job.dedupeKey() == null && job.orderingKey() == null && job.after().isEmpty()
                && !job.runAt().isAfter(job.createdAt());
    }

    /** Writes the job RUNNING if this node holds a runner for it and its queue is not paused. */
    private boolean insertStartingHere(NewJob job) {
        Optional<LocalStart> held = dispatcher.reserveStart(job.queue());
        if (held.isEmpty()) {
            return false;
        }
        LocalStart start = held.get();
        boolean starting = false;
        try {
            if (store.insertRunning(job, start.leaseToken(), start.startedAt(), start.leaseExpiresAt())) {
                transactions.registerInterposedSynchronization(new StartAfterCommit(start, job));
                starting = true;
            } else {
                start.queuePaused();
            }
        } finally {
            if (!starting) {
                start.cancel();
            }
        }
        if (starting) {
            created(job, false);
        }
        return starting;
    }

    private void created(NewJob job, boolean pending) {
        if (job.group() != null) {
            store.ensureGroup(job.group(), job.createdAt());
        }
        if (!job.after().isEmpty()) {
            store.addDependencies(job.id(), List.copyOf(job.after()), job.createdAt());
        }
        wakeAfterCommit(job.queue(), pending, 1);
    }

    /**
     * Counts {@code jobs} new jobs of {@code queue} once the transaction commits and, if some are left to be
     * claimed ({@code pending}), wakes the queue's pollers here and on the other nodes: once per queue per
     * transaction, however many puts.
     */
    public void wakeAfterCommit(String queue, boolean pending, int jobs) {
        WakeAfterCommit.register(transactions, queue, pending, jobs, this::committed, metrics::enqueued);
    }

    /** After a commit that put jobs on {@code queue}: start them here and tell the other nodes. */
    private void committed(String queue) {
        dispatcher.wake(queue);
        broadcaster.committed(queue);
    }

    private JobId onDuplicate(NewJob job, DuplicatePolicy policy, KeyHolder holder) {
        JobId existing = JobId.parse(holder.id());
        switch (policy) {
            case IGNORE:
                return existing;
            case REJECT:
                throw new DuplicateJobException(Messages.duplicateRejected(job.queue(), existing, job.dedupeKey()),
                        existing);
            case REPLACE:
                if (holder.state() == JobState.RUNNING
                        || !store.replace(holder.id(), job.payload(), job.runAt(), job.priority())) {
                    throw new DuplicateJobException(Messages.duplicateRunning(job.queue(), existing, job.dedupeKey()),
                            existing);
                }
                return existing;
            default:
                throw new IllegalArgumentException("unknown duplicate policy " + policy);
        }
    }
}
