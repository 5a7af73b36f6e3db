package dev.jobqueue.internal.enqueue;

import dev.jobqueue.InvalidPayloadException;
import dev.jobqueue.JobId;
import dev.jobqueue.JobOptions;
import dev.jobqueue.JobQueue;
import dev.jobqueue.internal.Messages;
import dev.jobqueue.internal.QueueNames;
import dev.jobqueue.internal.payload.PayloadCodec;
import dev.jobqueue.internal.store.NewJob;
import dev.jobqueue.internal.time.JobQueueClock;
import dev.jobqueue.internal.trace.JobTracing;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The {@link JobQueue} bean. It checks and serialises the payload before it touches the transaction, so
 * a bad payload throws without writing anything and without marking the caller's transaction for rollback.
 */
@ApplicationScoped
public class DefaultJobQueue implements JobQueue {

    @Inject
    @JobQueueClock
    Clock clock;

    @Inject
    PayloadCodec codec;

    @Inject
    JobWriter writer;

    @Inject
    JobTracing tracing;

    @Override
    public JobId put(String queue, Object payload) {
        return put(queue, payload, JobOptions.defaults());
    }

    @Override
    public JobId put(String queue, Object payload, JobOptions options) {
        QueueNames.requireValid(queue);
        Objects.requireNonNull(options, "options");
        if (payload == null) {
            throw new InvalidPayloadException(Messages.nullPayload(queue), null);
        }
        String json;
        try {
            json = codec.toJson(payload);
        } catch (RuntimeException e) {
            throw new InvalidPayloadException(Messages.unserialisablePayload(queue, payload.getClass(), rootCause(e)), e);
        }
        Instant now = clock.instant();
        NewJob job = new NewJob(JobId.random().toString(), queue, json, options.priority(), options.dueAt(now), now,
                options.key().orElse(null), options.orderingKey().orElse(null), options.group().orElse(null),
                options.after().stream().map(JobId::toString).collect(Collectors.toCollection(TreeSet::new)),
                tracing.current());
        return writer.write(job, options.onDuplicate());
    }

    private static Throwable rootCause(Throwable error) {
        Throwable cause = error;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause.getMessage() == null ? error : cause;
    }
}
