package dev.jobqueue;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * How one job is put: when it is due, its priority, its dedupe key, the jobs it waits for, its ordering key and
 * its group. Immutable: every method returns a new instance, so a value can be shared and reused.
 *
 * <pre>{@code
 * jobs.put("emails", email, JobOptions.defaults().delay(Duration.ofMinutes(5)).priority(10).key("order-42"));
 * }</pre>
 *
 * Every setter checks its argument and throws {@link IllegalArgumentException} naming the problem.
 */
public final class JobOptions {

    /** The lowest priority. */
    public static final int MIN_PRIORITY = -100;
    /** The highest priority. */
    public static final int MAX_PRIORITY = 100;
    /** The longest dedupe key, ordering key or group name, in characters. None may contain NUL (U+0000). */
    public static final int MAX_KEY_LENGTH = 200;

    private static final JobOptions DEFAULTS = new JobOptions(null, Duration.ZERO, 0, null, DuplicatePolicy.IGNORE,
            Set.of(), null, null);

    private final Instant runAt;
    private final Duration delay;
    private final int priority;
    private final String key;
    private final DuplicatePolicy onDuplicate;
    private final Set<JobId> after;
    private final String orderingKey;
    private final String group;

    private JobOptions(Instant runAt, Duration delay, int priority, String key, DuplicatePolicy onDuplicate,
            Set<JobId> after, String orderingKey, String group) {
        this.runAt = runAt;
        this.delay = delay;
        this.priority = priority;
        this.key = key;
        this.onDuplicate = onDuplicate;
        this.after = after;
        this.orderingKey = orderingKey;
        this.group = group;
    }

    /** Due at once, priority 0, no key, no dependencies, no ordering key, no group. */
    public static JobOptions defaults() {
        return DEFAULTS;
    }

    /** Not claimed before {@code time}. A time in the past means at once. Replaces any {@link #delay}. */
    public JobOptions runAt(Instant time) {
        Objects.requireNonNull(time, "runAt time");
        return new JobOptions(time, null, priority, key, onDuplicate, after, orderingKey, group);
    }

    /** Not claimed before {@code delay} after the put. Replaces any {@link #runAt}. */
    public JobOptions delay(Duration delay) {
        Objects.requireNonNull(delay, "delay");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("delay must not be negative, was " + delay);
        }
        return new JobOptions(null, delay, priority, key, onDuplicate, after, orderingKey, group);
    }

    /**
     * Among the due jobs of a queue, higher priorities are claimed first; equal priorities go oldest first.
     *
     * @param priority from {@value #MIN_PRIORITY} to {@value #MAX_PRIORITY}; the default is 0
     */
    public JobOptions priority(int priority) {
        if (priority < MIN_PRIORITY || priority > MAX_PRIORITY) {
            throw new IllegalArgumentException("priority must be between " + MIN_PRIORITY + " and " + MAX_PRIORITY
                    + ", was " + priority);
        }
        return new JobOptions(runAt, delay, priority, key, onDuplicate, after, orderingKey, group);
    }

    /** A dedupe key, with the {@link DuplicatePolicy#IGNORE} policy. */
    public JobOptions key(String key) {
        return key(key, DuplicatePolicy.IGNORE);
    }

    /**
     * A dedupe key: unique among the queue's jobs that are not yet DONE or FAILED.
     *
     * @param policy what a put does when the key is already held
     */
    public JobOptions key(String key, DuplicatePolicy policy) {
        Objects.requireNonNull(policy, "policy");
        return new JobOptions(runAt, delay, priority, checkedKey("key", key), policy, after, orderingKey, group);
    }

    /**
     * Jobs that must be DONE before this one is claimed. Until then it is WAITING. If one of them becomes FAILED,
     * this job becomes FAILED too, naming it. A job that no longer exists counts as DONE, because retention
     * deletes DONE jobs. Adds to any dependencies already given.
     */
    public JobOptions after(JobId... jobs) {
        Objects.requireNonNull(jobs, "jobs");
        Set<JobId> all = new LinkedHashSet<>(after);
        Arrays.stream(jobs).map(job -> Objects.requireNonNull(job, "a job in after(...)")).forEach(all::add);
        return new JobOptions(runAt, delay, priority, key, onDuplicate, Set.copyOf(all), orderingKey, group);
    }

    /**
     * Jobs of the queue with the same ordering key run one at a time, in the order they were put. A job that
     * fails holds its key while it retries; when it gives up, the next job of the key runs.
     */
    public JobOptions orderingKey(String orderingKey) {
        return new JobOptions(runAt, delay, priority, key, onDuplicate, after, checkedKey("orderingKey", orderingKey),
                group);
    }

    /** Tags the job with a group, whose progress {@link JobAdmin#group(String)} reports. */
    public JobOptions group(String group) {
        return new JobOptions(runAt, delay, priority, key, onDuplicate, after, orderingKey,
                checkedKey("group", group));
    }

    /** When the job is due, for a put at {@code now}. */
    public Instant dueAt(Instant now) {
        return runAt != null ? runAt : now.plus(delay);
    }

    /** The priority. */
    public int priority() {
        return priority;
    }

    /** The dedupe key, if any. */
    public Optional<String> key() {
        return Optional.ofNullable(key);
    }

    /** What a put does when the dedupe key is held. */
    public DuplicatePolicy onDuplicate() {
        return onDuplicate;
    }

    /** The jobs this one waits for. */
    public Set<JobId> after() {
        return after;
    }

    /** The ordering key, if any. */
    public Optional<String> orderingKey() {
        return Optional.ofNullable(orderingKey);
    }

    /** The group, if any. */
    public Optional<String> group() {
        return Optional.ofNullable(group);
    }

    private static String checkedKey(String name, String value) {
        Objects.requireNonNull(value, name);
        if (value.isBlank() || value.length() > MAX_KEY_LENGTH) {
            throw new IllegalArgumentException(name + " must be 1 to " + MAX_KEY_LENGTH
                    + " characters and not blank, was \"" + value + "\"");
        }
        // PostgreSQL cannot store NUL in text, and its error would abort the caller's transaction at the put.
        if (value.indexOf('\0') >= 0) {
            throw new IllegalArgumentException(name + " must not contain the NUL character (\\u0000), was \""
                    + value.replace("\0", "\\u0000") + "\"");
        }
        return value;
    }

    @Override
    public String toString() {
        return "JobOptions[runAt=" + runAt + ", delay=" + delay + ", priority=" + priority + ", key=" + key
                + ", onDuplicate=" + onDuplicate + ", after=" + after + ", orderingKey=" + orderingKey + ", group="
                + group + "]";
    }
}
