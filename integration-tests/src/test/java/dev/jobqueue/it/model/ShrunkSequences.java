package dev.jobqueue.it.model;

import static dev.jobqueue.it.model.ModelConsumers.BATCH;
import static dev.jobqueue.it.model.ModelConsumers.SINGLE;

import dev.jobqueue.DuplicatePolicy;
import dev.jobqueue.it.model.Step.Action;
import java.util.List;

/** Sequences the model found failing and shrank, kept as regression tests: each must now pass. */
final class ShrunkSequences {

    private ShrunkSequences() {
    }

    /**
     * Seed 3270913804945747593: a QueueBackoffException from a batch call of two jobs split the call in halves and
     * called one job again at once, instead of leaving both PENDING until the backoff ended.
     */
    static final List<Step> BACKOFF_SPLITS_A_BATCH = List.of(
            Step.put(BATCH, "k1", DuplicatePolicy.REJECT, null, null, List.of(), 0, "OF"),
            Step.put(BATCH, null, DuplicatePolicy.REPLACE, null, "g1", List.of(), 0, "RF/b1"),
            Step.drain(BATCH));

    /**
     * Seed 4653565758828366919 (generated without backoffs): JobAdmin.retryFailed of a queue with two FAILED jobs
     * of dedupe key k0 threw a unique index violation instead of retrying one of them.
     */
    static final List<Step> RETRY_OF_TWO_HOLDERS_OF_A_KEY = List.of(
            Step.put(SINGLE, "k0", DuplicatePolicy.IGNORE, null, "g1", List.of(), 0, "FF"),
            Step.drain(SINGLE),
            Step.put(SINGLE, "k0", DuplicatePolicy.REPLACE, null, null, List.of(), 0, "FF"),
            Step.drain(SINGLE),
            Step.put(SINGLE, "k0", DuplicatePolicy.REPLACE, "o1", "g1", List.of(), 0, "FF"),
            Step.drain(SINGLE),
            Step.advance(1),
            Step.drain(SINGLE),
            Step.admin(Action.RETRY_QUEUE, false, List.of(1), SINGLE, null));

    /** The same written by hand for the REST API, by filter, where the bug answered 500 (JQ079). */
    static final List<Step> REST_RETRY_OF_TWO_HOLDERS_OF_A_KEY = List.of(
            Step.put(SINGLE, "k0", DuplicatePolicy.IGNORE, null, null, List.of(), 0, "FF"),
            Step.drain(SINGLE),
            Step.advance(1),
            Step.drain(SINGLE),
            Step.put(SINGLE, "k0", DuplicatePolicy.IGNORE, null, null, List.of(), 0, "FF"),
            Step.drain(SINGLE),
            Step.advance(1),
            Step.drain(SINGLE),
            Step.admin(Action.RETRY_FILTER, true, List.of(), SINGLE, "k0"));

    /**
     * Seed -518488591922218632 (and 5360574627561252711, by ids), found after the fix for two holders of a key: a
     * FAILED job of key k0 and its child of the same key, FAILED at once as it was put, retried together (here by
     * queue, through JobAdmin.retryFailed): neither was retried. That fix kept the newer, the child, which cannot
     * run while its parent is FAILED, and passed the parent over as "dedupeKeyHeld" though nothing held k0.
     */
    static final List<Step> RETRY_OF_A_HOLDER_AND_ITS_CHILD_OF_ONE_KEY = List.of(
            Step.put(SINGLE, "k0", DuplicatePolicy.REJECT, null, null, List.of(), 0, "FF"),
            Step.drain(SINGLE),
            Step.advance(1),
            Step.drain(SINGLE),
            Step.put(SINGLE, "k0", DuplicatePolicy.REPLACE, null, null, List.of(1, 0), 0, "FF"),
            Step.admin(Action.RETRY_QUEUE, false, List.of(2), SINGLE, "k1"));

    /**
     * Seed 7646625651027112202, before the first cancel by filter landed: with three jobs a chunk, a cancel of a
     * queue's jobs in put order cancelled a job in one chunk and failed the job of a later chunk that waited for it,
     * instead of cancelling both.
     */
    static final List<Step> CANCEL_BY_FILTER_ACROSS_CHUNKS = List.of(
            Step.put(SINGLE, null, DuplicatePolicy.REPLACE, null, "g1", List.of(), 0, "FO"),
            Step.putAll(Step.put(SINGLE, null, DuplicatePolicy.IGNORE, null, null, List.of(), 0, "FF"),
                    Step.put(SINGLE, "k0", DuplicatePolicy.IGNORE, null, null, List.of(3, 8), 0, "FF/b2"),
                    Step.put(SINGLE, null, DuplicatePolicy.IGNORE, null, null, List.of(0, 8, 9), 0, "OO"),
                    Step.put(SINGLE, "k1", DuplicatePolicy.IGNORE, null, null, List.of(10), 0, "FO")),
            Step.admin(Action.CANCEL_FILTER, true, List.of(14), SINGLE, null));

    static final List<List<Step>> ALL = List.of(BACKOFF_SPLITS_A_BATCH, RETRY_OF_TWO_HOLDERS_OF_A_KEY,
            REST_RETRY_OF_TWO_HOLDERS_OF_A_KEY, RETRY_OF_A_HOLDER_AND_ITS_CHILD_OF_ONE_KEY,
            CANCEL_BY_FILTER_ACROSS_CHUNKS);
}
