package dev.jobqueue.internal.store;

import java.util.List;
import java.util.Optional;

/**
 * One page of a job listing.
 *
 * @param jobs the jobs on it
 * @param next where the next page starts, or empty on the last page
 */
public record JobPage(List<ListedJob> jobs, Optional<JobCursor> next) {
}
