package dev.jobqueue.internal.enqueue;

import dev.jobqueue.DuplicateJobException;
import dev.jobqueue.DuplicatePolicy;
import dev.jobqueue.InvalidPayloadException;
import dev.jobqueue.JobId;
import dev.jobqueue.internal.Messages;
import dev.jobqueue.internal.store.EnqueueStore;
import dev.jobqueue.internal.store.NewJob;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Writes the jobs of one {@code putAll}, in the caller's transaction or a new one, in their order. Runs of jobs
 * without a dedupe key go in multi-row inserts; a job with a key goes through {@link JobWriter} alone, since its
 * policy decides what the put does, and jobs of the call that share a key meet it there as any later put would.
 * Every payload's size is checked before anything is written.
 */
@ApplicationScoped
public class BulkWriter {

    @Inject
    JobWriter single;

    @Inject
    EnqueueStore store;

    @Resource
    TransactionSynchronizationRegistry transactions;

    /**
     * A job of the call.
     *
     * @param job           the job, with the dependencies its options name
     * @param onDuplicate   its dedupe key's policy
     * @param afterEarlier  the indexes of the earlier jobs of the call it waits for
     */
    public record BulkJob(NewJob job, DuplicatePolicy onDuplicate, List<Integer> afterEarlier) {
    }

    /**
     * @return the id of each job, in order: of the new job, or of the job that holds its dedupe key
     * @throws InvalidPayloadException if a payload is too large, naming its index; nothing is written
     * @throws DuplicateJobException   if a job's key is held and its policy refuses it, naming its index; the
     *                                 transaction is marked for rollback if the call wrote anything before it
     */
    @Transactional(value = TxType.REQUIRED,
            dontRollbackOn = {DuplicateJobException.class, InvalidPayloadException.class})
    public List<JobId> writeAll(List<BulkJob> jobs) {
        for (int i = 0; i < jobs.size(); i++) {
            try {
                single.requireWithinSizeLimit(jobs.get(i).job());
            } catch (InvalidPayloadException e) {
                throw new InvalidPayloadException(Messages.inPutAll(e.getMessage(), i, jobs.size()), e.getCause());
            }
        }
        List<JobId> ids = new ArrayList<>(jobs.size());
        List<NewJob> batch = new ArrayList<>();
        boolean wrote = false;
        for (int i = 0; i < jobs.size(); i++) {
            BulkJob bulk = jobs.get(i);
            NewJob job = withEarlierDependencies(bulk, ids);
            if (job.dedupeKey() == null) {
                batch.add(job);
                ids.add(JobId.parse(job.id()));
                continue;
            }
            wrote |= flush(batch);
            try {
                JobId id = single.write(job, bulk.onDuplicate());
                ids.add(id);
                wrote |= id.toString().equals(job.id()) || bulk.onDuplicate() == DuplicatePolicy.REPLACE;
            } catch (DuplicateJobException e) {
                if (wrote) {
                    transactions.setRollbackOnly();
                }
                throw new DuplicateJobException(Messages.inPutAll(e.getMessage(), i, jobs.size())
                        + (wrote ? "; the jobs this call wrote before it are rolled back with the transaction" : ""),
                        e.existing());
            }
        }
        flush(batch);
        return ids;
    }

    /** The job, also waiting for the jobs of the call its request named, by the ids their puts returned. */
    private static NewJob withEarlierDependencies(BulkJob bulk, List<JobId> earlier) {
        if (bulk.afterEarlier().isEmpty()) {
            return bulk.job();
        }
        Set<String> after = new LinkedHashSet<>(bulk.job().after());
        bulk.afterEarlier().forEach(index -> after.add(earlier.get(index).toString()));
        return bulk.job().withAfter(Set.copyOf(after));
    }

    /** Writes the batch's jobs, their groups and their dependencies, and empties it; false if it was empty. */
    private boolean flush(List<NewJob> batch) {
        if (batch.isEmpty()) {
            return false;
        }
        store.insertAll(batch);
        batch.stream().map(NewJob::group).filter(Objects::nonNull).distinct()
                .forEach(group -> store.ensureGroup(group, batch.get(0).createdAt()));
        for (NewJob job : batch) {
            if (!job.after().isEmpty()) {
                store.addDependencies(job.id(), List.copyOf(job.after()), job.createdAt());
            }
        }
        single.wakeAfterCommit(batch.get(0).queue(), true, batch.size());
        batch.clear();
        return true;
    }
}
