package dev.jobqueue;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One job of a {@link JobQueue#putAll(String, List)}: its payload, its options, and the jobs of the same call it
 * waits for. Immutable: {@link #after(JobRequest...)} returns a new request.
 *
 * <pre>{@code
 * JobRequest extract = JobRequest.of(new Extract(file));
 * JobRequest load = JobRequest.of(new Load(file)).after(extract);
 * List<JobId> ids = jobs.putAll("etl", List.of(extract, load));
 * }</pre>
 */
public final class JobRequest {

    private final Object payload;
    private final JobOptions options;
    private final Set<JobRequest> after;

    private JobRequest(Object payload, JobOptions options, Set<JobRequest> after) {
        this.payload = payload;
        this.options = options;
        this.after = after;
    }

    /** A job with this payload and the default options. */
    public static JobRequest of(Object payload) {
        return of(payload, JobOptions.defaults());
    }

    /** A job with this payload and these options. A null payload is refused by the put, naming its index. */
    public static JobRequest of(Object payload, JobOptions options) {
        return new JobRequest(payload, Objects.requireNonNull(options, "options"), Set.of());
    }

    /**
     * Makes this job wait for {@code earlier}, which must come before it in the same call, as
     * {@link JobOptions#after(JobId...)} does for jobs already put. Adds to any given before.
     */
    public JobRequest after(JobRequest... earlier) {
        Objects.requireNonNull(earlier, "earlier");
        Set<JobRequest> all = new LinkedHashSet<>(after);
        Arrays.stream(earlier).map(job -> Objects.requireNonNull(job, "a request in after(...)")).forEach(all::add);
        return new JobRequest(payload, options, Set.copyOf(all));
    }

    /** The payload. */
    public Object payload() {
        return payload;
    }

    /** The options. */
    public JobOptions options() {
        return options;
    }

    /** The jobs of the same call this one waits for. */
    public Set<JobRequest> after() {
        return after;
    }
}
