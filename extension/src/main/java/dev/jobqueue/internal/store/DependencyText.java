package dev.jobqueue.internal.store;

/** The error recorded on a job that fails because a job it waits for failed. */
final class DependencyText {

    private DependencyText() {
    }

    static String failed(String dependencyId) {
        return "JQ040: job " + dependencyId + ", which this job waits for, is FAILED";
    }
}
