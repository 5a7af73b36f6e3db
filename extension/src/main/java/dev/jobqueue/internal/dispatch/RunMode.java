package dev.jobqueue.internal.dispatch;

/**
 * Whether this node's consumers run jobs on their own: polling, starting a job put here at once, and waking
 * for other nodes' puts. The default bean says yes. The test kit ({@code jobqueue-test}) replaces it, so that in
 * a test deployment jobs run only when the test drains their queue.
 */
public interface RunMode {

    /** True when jobs run on their own; false when they run only when a test drains their queue. */
    boolean automatic();
}
