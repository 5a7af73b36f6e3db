package dev.jobqueue.internal.enqueue;

import dev.jobqueue.InvalidPayloadException;
import dev.jobqueue.JobId;
import dev.jobqueue.JobOptions;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobRequest;
import dev.jobqueue.internal.enqueue.BulkWriter.BulkJob;
import dev.jobqueue.internal.Messages;
import dev.jobqueue.internal.QueueNames;
import dev.jobqueue.internal.payload.PayloadCodec;
import dev.jobqueue.internal.store.NewJob;
import dev.jobqueue.internal.time.JobQueueClock;
import dev.jobqueue.internal.trace.JobTracing;
import dev.jobqueue.internal.trace.TraceContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
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
    BulkWriter bulkWriter;

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
        return writer.write(newJob(queue, payload, options, clock.instant(), tracing.current()), options.onDuplicate());
    }

    @Override
    public List<JobId> putAll(String queue, Collection<?> payloads, JobOptions options) {
        Objects.requireNonNull(payloads, "payloads");
        Objects.requireNonNull(options, "options");
        List<JobRequest> requests = new ArrayList<>(payloads.size());
        for (Object payload : payloads) {
            if (payload instanceof JobRequest) {
                throw new IllegalArgumentException("putAll(queue, payloads, options) was given a JobRequest as a"
                        + " payload; pass the requests to putAll(queue, requests)");
            }
            requests.add(JobRequest.of(payload, options));
        }
        return putAll(queue, requests);
    }

    @Override
    public List<JobId> putAll(String queue, List<JobRequest> requests) {
        QueueNames.requireValid(queue);
        Objects.requireNonNull(requests, "requests");
        Map<JobRequest, Integer> indexes = new IdentityHashMap<>();
        Instant now = clock.instant();
        TraceContext putBy = tracing.current();
        List<BulkJob> jobs = new ArrayList<>(requests.size());
        for (int i = 0; i < requests.size(); i++) {
            JobRequest request = Objects.requireNonNull(requests.get(i), "the request at index " + i);
            Integer seen = indexes.putIfAbsent(request, i);
            if (seen != null) {
                throw new IllegalArgumentException("the request at index " + i + " is the one at index " + seen
                        + " again; make a request per job");
            }
            NewJob job;
            try {
                job = newJob(queue, request.payload(), request.options(), now, putBy);
            } catch (InvalidPayloadException e) {
                throw new InvalidPayloadException(Messages.inPutAll(e.getMessage(), i, requests.size()), e.getCause());
            }
            jobs.add(new BulkJob(job, request.options().onDuplicate(), earlierIndexes(request, i, indexes)));
        }
        return jobs.isEmpty() ? List.of() : bulkWriter.writeAll(jobs);
    }

    /** The indexes of the earlier requests {@code request}, at {@code index}, waits for. */
    private static List<Integer> earlierIndexes(JobRequest request, int index, Map<JobRequest, Integer> indexes) {
        List<Integer> earlier = new ArrayList<>(request.after().size());
        for (JobRequest dependency : request.after()) {
            Integer at = indexes.get(dependency);
            if (at == null || at == index) {
                throw new IllegalArgumentException("the request at index " + index
                        + " waits for a request that is not earlier in the same putAll");
            }
            earlier.add(at);
        }
        return earlier;
    }

    /** The job a put writes, its payload serialised. */
    private NewJob newJob(String queue, Object payload, JobOptions options, Instant now, TraceContext putBy) {
        if (payload == null) {
            throw new InvalidPayloadException(Messages.nullPayload(queue), null);
        }
        String json;
        try {
            json = codec.toJson(payload);
        } catch (RuntimeException e) {
            throw new InvalidPayloadException(Messages.unserialisablePayload(queue, payload.getClass(), rootCause(e)), e);
        }
        return new NewJob(JobId.random().toString(), queue, json, options.priority(), options.dueAt(now), now,
                options.key().orElse(null), options.orderingKey().orElse(null), options.group().orElse(null),
                options.after().stream().map(JobId::toString).collect(Collectors.toCollection(TreeSet::new)), putBy);
    }

    private static Throwable rootCause(Throwable error) {
        Throwable cause = error;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause.getMessage() == null ? error : cause;
    }
}
