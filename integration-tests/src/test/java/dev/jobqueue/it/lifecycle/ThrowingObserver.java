package dev.jobqueue.it.lifecycle;

import dev.jobqueue.JobFailed;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** An observer that fails: the queue must carry on regardless. */
@ApplicationScoped
public class ThrowingObserver {

    void onFailure(@Observes JobFailed failed) {
        throw new IllegalStateException("the alerting system is down");
    }
}
