package dev.jobqueue.test;

import dev.jobqueue.internal.dispatch.RunMode;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import jakarta.interceptor.Interceptor;

/**
 * In a deployment that includes this jar, jobs run only when a test drains their queue with
 * {@link JobQueueTester#drain}: no polling, no start at put, no wake-up from other nodes. A test then decides
 * when each attempt happens, and sees what it did.
 */
@Alternative
@Priority(Interceptor.Priority.APPLICATION + 100)
@ApplicationScoped
public class ManualRunMode implements RunMode {

    @Override
    public boolean automatic() {
        return false;
    }
}
