package dev.jobqueue.internal.time;

import jakarta.inject.Qualifier;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The clock jobqueue reads every time from: run times, leases, backoff, stuck jobs and retention. A test
 * can replace it with a settable clock through a CDI alternative, so time-based behaviour needs no sleeps.
 */
@Qualifier
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER, ElementType.TYPE})
public @interface JobQueueClock {
}
