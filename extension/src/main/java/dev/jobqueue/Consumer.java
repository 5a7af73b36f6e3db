package dev.jobqueue;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the method that consumes the jobs of one queue.
 *
 * <p>The method belongs to a CDI bean (a managed bean or a session bean), is public and returns
 * {@code void}. Its first parameter receives the payload, deserialised by JSON-B into the parameter's
 * declared type; an optional second parameter of type {@link JobContext} receives the job's metadata. A
 * normal return marks the job done; an exception schedules a retry with backoff, until the attempts run out
 * and the job becomes FAILED.
 *
 * <pre>{@code
 * @ApplicationScoped
 * public class ConfirmationSender {
 *     @Consumer(queue = "order-confirmation", maxAttempts = 5)
 *     public void send(OrderPlaced event, JobContext job) { ... }
 * }
 * }</pre>
 *
 * <p>Every option can also be set in MicroProfile Config, and config wins: the per-queue key
 * {@code jobqueue.queue.<queue>.<option>} beats the global key {@code jobqueue.<option>}, which beats the
 * value here. {@code jobs-per-call}, {@code jobs-per-transaction} and {@code transactional} have no global key:
 * they must fit the method.
 * Durations are written as {@code 500ms}, {@code 30s}, {@code 5m}, {@code 2h}, {@code 1d} or ISO-8601. An
 * attribute left at its default means "not set here"; {@code docs/reference/configuration.md} lists every key
 * and default.
 *
 * <p>Each queue has exactly one consumer per application. A bad signature, a duplicate queue, an invalid
 * queue name or a bad option value fails the deployment.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Consumer {

    /** The queue this method consumes, matching {@code [a-z0-9][a-z0-9._-]*}. */
    String queue();

    /** {@code max-attempts}: attempts before the job gives up and becomes FAILED. 0 means not set. */
    int maxAttempts() default 0;

    /** {@code backoff.initial}: the wait after the first failed attempt. */
    String backoffInitial() default "";

    /** {@code backoff.multiplier}: each further wait is this many times the previous one. 0 means not set. */
    double backoffMultiplier() default 0;

    /** {@code backoff.max}: the longest wait. */
    String backoffMax() default "";

    /** {@code backoff.jitter}: each wait is spread randomly by ± this fraction, 0 to 1. Negative means not set. */
    double backoffJitter() default -1;

    /** {@code backoff.delays}: explicit waits, used instead of exponential backoff; the last one repeats. */
    String[] backoffDelays() default {};

    /** {@code lease}: how long a claim stays valid without renewal. */
    String lease() default "";

    /** {@code max-execute-time}: a consumer running longer is logged as stuck, with its stack trace. */
    String maxExecuteTime() default "";

    /** {@code poll-interval}: how often the queue is polled for retries and for jobs put on other nodes. */
    String pollInterval() default "";

    /** {@code concurrency}: how many of the queue's jobs run at once on this node. 0 means not set. */
    int concurrency() default 0;

    /**
     * {@code batch-size}: how many jobs one claim takes at most; a claim takes fewer of slow jobs, about as many
     * as the consumers finish in 100 ms. 0 means not set.
     */
    int batchSize() default 0;

    /**
     * {@code jobs-per-call}: makes this a batch consumer, called with up to this many jobs at once. Its first
     * parameter is then a {@code List} of payloads, and an optional second one the {@code List<JobContext>} in
     * the same order. All the jobs of a call are marked DONE in the consumer's one transaction, so their database
     * effects commit together, exactly once. If the call throws, the jobs run again in two halves, and so on, so
     * that a failing job fails alone: its attempt is counted, the others' are not. A batch consumer must be
     * transactional. 0, the default, means a consumer of one job per call.
     */
    int jobsPerCall() default 0;

    /**
     * {@code jobs-per-transaction}: lets a transactional consumer of one job per call run up to this many jobs,
     * already claimed and waiting on this node, in one transaction, so that they pay for one commit. Each job
     * still has its own call, in put order, and each job's DONE commits with its call's writes, exactly once. If
     * a call throws, or marks the transaction rollback-only, the whole transaction rolls back and the jobs run
     * again in two halves, and so on, until the failing job runs alone: its attempt is counted, the others' are
     * not, but their calls ran more than once, so only a consumer whose effects are all in the transaction
     * should set it. The calls share the transaction's persistence context. Worth it for a queue with a backlog
     * of short jobs. 0, the default, means 1.
     */
    int jobsPerTransaction() default 0;

    /** {@code enabled}: whether this node consumes the queue. A node can always put jobs on it. */
    boolean enabled() default true;

    /**
     * {@code success-on}: exception types that count as success, for idempotent consumers, such as
     * {@code jakarta.persistence.OptimisticLockException} from a write-once update. The consumer's
     * transaction still rolls back; the job is marked DONE.
     */
    Class<? extends Throwable>[] successOn() default {};

    /**
     * {@code transactional}: whether the consumer runs inside the transaction that marks the job DONE (the
     * default), so its database writes commit exactly once with the completion. Set false for long calls to
     * external systems.
     */
    boolean transactional() default true;

    /** {@code retention}: how long DONE jobs are kept before they are deleted. {@code 0s} deletes at once. */
    String retention() default "";

    /**
     * {@code max-payload-size}: the largest payload a put accepts for this queue, measured as the size of its
     * JSON in UTF-8, written as {@code 1048576}, {@code 512KiB} or {@code 1MiB}. A larger payload makes
     * {@link JobQueue#put} throw {@link InvalidPayloadException}. It applies to puts on nodes that run this
     * consumer; a node without it uses {@code jobqueue.max-payload-size}.
     */
    String maxPayloadSize() default "";

    /**
     * {@code rate-limit}: at most this many of the queue's jobs start in any window of one period, on all nodes
     * together, written as starts per period: {@code 50/1s}, {@code 1000/1m}. Every attempt counts, retries too. A
     * job the limit holds back stays PENDING in its order and starts when the window has room. Per queue only;
     * an admin can change it at run time for every node. Empty, the default, means no limit.
     */
    String rateLimit() default "";

    /**
     * {@code max-running}: the most jobs of the queue RUNNING at once on all nodes together, unlike
     * {@code concurrency}, which counts one node's. Per queue only; an admin can change it at run time. 0, the
     * default, means no limit.
     */
    int maxRunning() default 0;

    /**
     * {@code strict-payload}: whether a payload must match the first parameter's type exactly. By default a
     * field the type does not have is ignored and a field the JSON leaves out gets Java's default (null, 0,
     * false), so that payloads put by an older or newer version of the application still run. With
     * {@code true} either one fails the job at once, as FAILED with error {@code JQ044} naming each field; a
     * left-out field that reads as null does not, since JSON-B leaves null fields out when it writes a payload.
     */
    boolean strictPayload() default false;

    /**
     * {@code trace-parent}: when the server traces with OpenTelemetry (MicroProfile Telemetry), how the span of a
     * consumer call relates to the span that put the job. {@code child}, the default: the first attempt is a child
     * of the putting span, in its trace, and a retry starts a new trace with a link to it. {@code link}: every
     * attempt starts a new trace with a link. {@code none}: every attempt starts a new trace, unrelated to the put.
     */
    String traceParent() default "";
}
