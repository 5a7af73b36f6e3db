package dev.jobqueue.internal.enqueue;

import dev.jobqueue.InvalidPayloadException;
import dev.jobqueue.JobId;
import dev.jobqueue.JobQueue;
import dev.jobqueue.internal.Messages;
import dev.jobqueue.internal.QueueNames;
import dev.jobqueue.internal.store.JobRow;
import dev.jobqueue.internal.time.JobQueueClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;

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

    @Override
    public JobId put(String queue, Object payload) {
        QueueNames.requireValid(queue);
        if (payload == null) {
            throw new InvalidPayloadException(Messages.nullPayload(queue), null);
        }
        String json;
        try {
            json = codec.toJson(payload);
        } catch (RuntimeException e) {
            throw new InvalidPayloadException(Messages.unserialisablePayload(queue, payload.getClass(), rootCause(e)), e);
        }
        JobId id = JobId.random();
        writer.write(JobRow.pending(id.toString(), queue, json, clock.instant()));
        return id;
    }

    private static Throwable rootCause(Throwable error) {
        Throwable cause = error;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause.getMessage() == null ? error : cause;
    }
}
