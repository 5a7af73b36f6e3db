package dev.jobqueue;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the method that consumes the jobs of one queue.
 *
 * <p>The method belongs to a CDI bean (a managed bean or a session bean). Its first parameter
 * receives the payload, deserialised by JSON-B into the parameter's declared type; an optional
 * second parameter of type {@link JobContext} receives the job's metadata. It returns
 * {@code void}. A normal return marks the job done; an exception schedules a retry.
 *
 * <pre>{@code
 * @ApplicationScoped
 * public class ConfirmationSender {
 *     @Consumer(queue = "order-confirmation")
 *     void send(OrderPlaced event, JobContext job) { ... }
 * }
 * }</pre>
 *
 * <p>Each queue has exactly one consumer per application. Every problem with a consumer (a bad
 * signature, a duplicate queue, an invalid queue name) fails the deployment.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Consumer {

    /** The queue this method consumes, matching {@code [a-z0-9][a-z0-9._-]*}. */
    String queue();
}
