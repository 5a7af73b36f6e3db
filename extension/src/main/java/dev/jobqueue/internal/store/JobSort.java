package dev.jobqueue.internal.store;

/** The orders a job listing comes in; each is a keyset over columns the schema indexes. */
public enum JobSort {
    /** Newest put first: by {@code seq}, descending. */
    PUT("seq DESC"),
    /** Due soonest first: by {@code run_at}, then put order. */
    DUE("run_at, seq");

    private final String orderBy;

    JobSort(String orderBy) {
        this.orderBy = orderBy;
    }

    String orderBy() {
        return orderBy;
    }
}
