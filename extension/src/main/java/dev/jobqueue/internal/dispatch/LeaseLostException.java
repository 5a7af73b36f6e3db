package dev.jobqueue.internal.dispatch;

/** The job was taken over by another claim before this worker could finish it; its work is rolled back. */
final class LeaseLostException extends Exception {

    private static final long serialVersionUID = 1L;

    LeaseLostException(String jobId, String queue) {
        super("job " + jobId + " on queue " + queue + " lost its lease before it finished; its work was rolled back");
    }
}
