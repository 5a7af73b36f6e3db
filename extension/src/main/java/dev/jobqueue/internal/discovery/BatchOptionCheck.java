package dev.jobqueue.internal.discovery;

import dev.jobqueue.internal.Messages;
import dev.jobqueue.internal.config.QueueOptions;
import dev.jobqueue.internal.consumer.ConsumerMethod;
import java.util.Optional;

/**
 * Checks that a consumer's resolved options fit its kind, batch or single-job: what configuration sets about
 * calls and transactions must be something the consumer can do.
 */
final class BatchOptionCheck {

    private BatchOptionCheck() {
    }

    /**
     * A batch consumer must be transactional: its one transaction is what makes a batch's effects commit exactly
     * once. Configuration may change a batch consumer's jobs-per-call, but cannot make a single-job one a batch one.
     * Several jobs in one transaction likewise need a transactional consumer, of one job per call.
     */
    static Optional<String> problem(ConsumerMethod consumer, QueueOptions options) {
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
}
