package dev.jobqueue;

/**
 * What a {@link JobQueue#put(String, Object, JobOptions) put} does when its dedupe key is already held by a
 * job of the same queue that is not yet DONE or FAILED. A database constraint decides, so the policy holds for
 * concurrent puts on any number of nodes.
 */
public enum DuplicatePolicy {

    /** Keep the existing job and return its id. Nothing is written. The default. */
    IGNORE,

    /**
     * Give the existing job the new payload, due time and priority, and return its id. Only a job that has not
     * started can be replaced: if it is RUNNING, the put throws {@link DuplicateJobException}.
     */
    REPLACE,

    /** Throw {@link DuplicateJobException}. Nothing is written and the caller's transaction can go on. */
    REJECT
}
