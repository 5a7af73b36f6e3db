package dev.jobqueue.internal.store;

import dev.jobqueue.internal.config.NodeSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.PersistenceException;

/**
 * Runs a change to any number of rows as a series of short transactions of at most {@link #size()} rows each
 * ({@code jobqueue.bulk-chunk-size}, 1,000 by default).
 * A single statement over a million rows can outlive the transaction timeout and then roll back and start
 * over for ever; it also holds a million row locks and a million rows of undo. A chunk takes milliseconds.
 * Each chunk commits on its own, so a failure part-way keeps the chunks before it: every bulk change here
 * (retention, an operator's purge or replay) is one that may simply be run again.
 */
@ApplicationScoped
class Chunks {

    @Inject
    Transactions transactions;

    @Inject
    NodeSettings settings;

    /** Rows per chunk: at the default of 1,000, a million rows take a thousand short transactions. */
    int size() {
        return settings.bulkChunkSize();
    }

    /**
     * What one chunk did.
     *
     * @param selected how many rows it looked at; fewer than {@link #size()} means it was the last
     * @param changed  how many rows it changed
     * @param next     where the next chunk starts, for chunks that page through rows they leave in place
     */
    record Step<K>(int selected, int changed, K next) {
    }

    /** One chunk's work, in the transaction {@link #run} begins for it. */
    @FunctionalInterface
    interface Work<K> {
        /** @param from where the previous chunk ended, null for the first */
        Step<K> run(K from) throws Exception;
    }

    /** Runs chunks, each in a new transaction, until one looks at fewer than {@link #size()} rows; returns the rows changed. */
    <K> int run(Work<K> chunk) {
        int changed = 0;
        K from = null;
        while (true) {
            K start = from;
            Step<K> step;
            try {
                step = transactions.inNewTransaction(() -> chunk.run(start));
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new PersistenceException("jobqueue: " + e.getMessage(), e);
            }
            changed += step.changed();
            if (step.selected() < size()) {
                return changed;
            }
            from = step.next();
        }
    }
}
