package dev.jobqueue.internal.dispatch;

import dev.jobqueue.JobId;
import dev.jobqueue.internal.Messages;
import dev.jobqueue.internal.config.QueueOptions;
import dev.jobqueue.internal.discovery.ConsumerMethod;
import dev.jobqueue.internal.enqueue.PayloadCodec;
import dev.jobqueue.internal.store.ClaimedJob;
import dev.jobqueue.internal.store.ErrorText;
import dev.jobqueue.internal.store.JobStore;
import dev.jobqueue.internal.store.Transactions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.control.ActivateRequestContext;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionalException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs one claimed job: deserialises the payload, calls the consumer in a transaction that also marks the
 * job DONE, and on an exception records the error and schedules the next attempt or gives up.
 */
@ApplicationScoped
public class JobExecutor {

    private static final Logger LOG = Logger.getLogger(JobExecutor.class.getName());

    private final Clock clock = Clock.systemUTC();

    @Inject
    BeanManager beanManager;

    @Inject
    PayloadCodec codec;

    @Inject
    JobStore store;

    @Inject
    Transactions transactions;

    @ActivateRequestContext
    public void execute(ClaimedJob job, ConsumerMethod consumer, QueueOptions options) {
        if (job.attempt() > options.maxAttempts()) {
            giveUp(job, "gave up after " + options.maxAttempts()
                    + " attempts: the lease of the last attempt expired before it finished");
            return;
        }
        Object payload;
        try {
            payload = codec.fromJson(job.payload(), consumer.payloadType());
        } catch (RuntimeException e) {
            giveUp(job, Messages.undeserialisablePayload(consumer.method(), e));
            return;
        }
        ClaimedJobContext context = new ClaimedJobContext(JobId.parse(job.id()), job.queue(), job.attempt(),
                job.enqueuedAt());
        try {
            transactions.inNewTransaction(() -> {
                ConsumerInvoker.invoke(beanManager, consumer, payload, context);
                if (!store.complete(job.id(), job.leaseToken(), clock.instant())) {
                    throw new LeaseLostException(job.id(), job.queue());
                }
                return null;
            });
            LOG.fine(() -> "jobqueue: job " + job.id() + " on queue " + job.queue() + " is DONE after attempt "
                    + job.attempt());
        } catch (LeaseLostException e) {
            LOG.warning("jobqueue: " + e.getMessage());
        } catch (Throwable e) {
            afterFailure(job, options, unwrap(e));
        }
    }

    private void afterFailure(ClaimedJob job, QueueOptions options, Throwable error) {
        if (job.attempt() >= options.maxAttempts()) {
            giveUp(job, ErrorText.of(error));
            return;
        }
        Duration delay = options.backoff().delayAfter(job.attempt(), ThreadLocalRandom.current()::nextDouble);
        Instant runAt = clock.instant().plus(delay);
        try {
            if (store.retryLater(job.id(), job.leaseToken(), runAt, ErrorText.of(error))) {
                LOG.info(() -> "jobqueue: job " + job.id() + " on queue " + job.queue() + " failed attempt "
                        + job.attempt() + " of " + options.maxAttempts() + " and runs again in " + delay + ": "
                        + error);
            }
        } catch (RuntimeException storeError) {
            LOG.warning("jobqueue: cannot record the failure of job " + job.id() + " on queue " + job.queue()
                    + "; it runs again once its lease expires: " + storeError);
        }
    }

    private void giveUp(ClaimedJob job, String reason) {
        try {
            if (store.fail(job.id(), job.leaseToken(), clock.instant(), reason)) {
                LOG.warning("jobqueue: job " + job.id() + " on queue " + job.queue() + " is FAILED after attempt "
                        + job.attempt() + ": " + firstLine(reason));
            }
        } catch (RuntimeException storeError) {
            LOG.log(Level.WARNING, "jobqueue: cannot mark job " + job.id() + " on queue " + job.queue()
                    + " FAILED; it is tried again once its lease expires: " + storeError);
        }
    }

    private static Throwable unwrap(Throwable error) {
        if (error instanceof TransactionalException && error.getCause() != null) {
            return error.getCause();
        }
        return error;
    }

    private static String firstLine(String text) {
        int end = text.indexOf('\n');
        return end < 0 ? text : text.substring(0, end);
    }
}
