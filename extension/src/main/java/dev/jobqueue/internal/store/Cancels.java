package dev.jobqueue.internal.store;

import dev.jobqueue.CancelOutcome;
import dev.jobqueue.internal.Messages;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.PersistenceException;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * An operator's cancels of jobs that have not started, one job, some by id, or all that match a filter: a PENDING
 * or WAITING job becomes CANCELLED. Like a FAILED job it no longer holds its dedupe key or its place in its
 * ordering key, since both count unfinished jobs only; the jobs that wait for it become FAILED (JQ095), and a
 * group left with no unfinished job is finished. The jobs are locked first, so a job claimed meanwhile is either
 * cancelled before its claim or left RUNNING.
 */
@ApplicationScoped
public class Cancels {

    /** The states a cancel takes a job from. */
    static final String UNSTARTED = "state IN ('PENDING', 'WAITING')";

    @Inject
    TransactionalJdbc jdbc;

    @Inject
    Dependencies dependencies;

    @Inject
    Groups groups;

    @Inject
    Chunks chunks;

    @Inject
    Transactions transactions;

    /** A job a cancel ended. */
    public record CancelledJob(String id, String queue) {
    }

    /**
     * What a cancel did.
     *
     * @param jobs   the jobs it made CANCELLED
     * @param finish the jobs that failed with them and the groups they finished, for the events after commit
     */
    public record Result(List<CancelledJob> jobs, Finish finish) {

        static final Result NONE = new Result(List.of(), Finish.NOTHING);
    }

    /** What a cancel of one job did, and its answer. */
    public record Answer(Result result, CancelOutcome outcome) {
    }

    /** Cancels one job if it has not started, in a transaction of its own. */
    @Transactional(TxType.REQUIRES_NEW)
    public Answer cancel(String id, Instant now) {
        Result result = cancelAmong(List.of(id), now);
        if (!result.jobs().isEmpty()) {
            return new Answer(result, CancelOutcome.CANCELLED);
        }
        Optional<JobState> state = jdbc.query("SELECT state FROM jobqueue_job WHERE id = ?",
                (row, db) -> JobState.valueOf(row.getString(1)), id).stream().findFirst();
        return new Answer(result, state.map(found -> found == JobState.RUNNING ? CancelOutcome.RUNNING
                : CancelOutcome.FINISHED).orElse(CancelOutcome.NOT_FOUND));
    }

    /** Cancels those of {@code ids} that have not started, in a transaction of its own. */
    @Transactional(TxType.REQUIRES_NEW)
    public Result cancelSelected(List<String> ids, Instant now) {
        return cancelAmong(ids, now);
    }

    /** Cancels those of {@code ids} that have not started, in the caller's transaction. */
    @Transactional(TxType.MANDATORY)
    public Result cancelAmong(List<String> ids, Instant now) {
        if (ids.isEmpty()) {
            return Result.NONE;
        }
        record Locked(String id, String queue, String group, boolean hasDependents) {
        }
        List<Locked> locked = jdbc.query("SELECT id, queue, group_name, has_dependents FROM jobqueue_job WHERE id IN ("
                + Database.placeholders(ids.size()) + ") AND " + UNSTARTED + " ORDER BY id FOR UPDATE",
                (row, db) -> new Locked(row.getString(1), row.getString(2), row.getString(3), row.getBoolean(4)),
                ids);
        if (locked.isEmpty()) {
            return Result.NONE;
        }
        List<String> lockedIds = locked.stream().map(Locked::id).toList();
        jdbc.update("UPDATE jobqueue_job SET state = 'CANCELLED', finished_at = ? WHERE id IN ("
                + Database.placeholders(lockedIds.size()) + ") AND " + UNSTARTED, now, lockedIds);
        List<FailedDependent> failed = new ArrayList<>();
        locked.stream().filter(Locked::hasDependents).forEach(job ->
                failed.addAll(dependencies.failDependents(job.id(), now, Messages.dependencyCancelled(job.id()))));
        Set<String> touched = new HashSet<>();
        locked.stream().map(Locked::group).filter(Objects::nonNull).forEach(touched::add);
        return new Result(locked.stream().map(job -> new CancelledJob(job.id(), job.queue())).toList(),
                groups.afterFinish(touched, Set.of(), failed));
    }

    /**
     * Cancels every job that matches {@code filter} and has not started, {@code jobqueue.bulk-chunk-size} at a
     * time, each chunk in its own transaction ({@link Chunks}); {@code committed} gets what each chunk did once it
     * committed, so that a failure part-way loses the events of none that did. Newest first: a job waits only for
     * older ones, so a matching job that waits for another is cancelled before that one, and ends CANCELLED
     * rather than FAILED with it, whichever chunks they fall in.
     */
    public void cancelMatching(JobFilter filter, Instant now, Consumer<Result> committed) {
        Long from = null;
        while (true) {
            Long start = from;
            Chunk chunk;
            try {
                chunk = transactions.inNewTransaction(() -> cancelChunk(filter, start, now));
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new PersistenceException("jobqueue: " + e.getMessage(), e);
            }
            committed.accept(chunk.result());
            if (chunk.selected() < chunks.size()) {
                return;
            }
            from = chunk.lastSeq();
        }
    }

    /** One chunk of a cancel by filter: how many jobs it looked at, what it did, and where the next starts. */
    private record Chunk(int selected, Result result, Long lastSeq) {
    }

    private Chunk cancelChunk(JobFilter filter, Long from, Instant now) {
        List<String> ids = new ArrayList<>();
        Long lastSeq = jdbc.run((connection, db) -> {
            try (PreparedStatement select = connection.prepareStatement("SELECT id, seq FROM jobqueue_job WHERE "
                    + filter.where() + " AND " + UNSTARTED + (from == null ? "" : " AND seq < ?")
                    + " ORDER BY seq DESC LIMIT " + chunks.size())) {
                int next = filter.bind(select, 1);
                if (from != null) {
                    select.setLong(next, from);
                }
                Long last = from;
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        ids.add(rows.getString(1));
                        last = rows.getLong(2);
                    }
                }
                return last;
            }
        });
        return new Chunk(ids.size(), cancelAmong(ids, now), lastSeq);
    }
}
