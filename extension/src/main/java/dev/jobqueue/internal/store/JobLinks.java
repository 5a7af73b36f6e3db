package dev.jobqueue.internal.store;

import java.util.List;

/**
 * A page of the jobs one job waits for, or of the jobs that wait for it, in id order.
 *
 * @param total how many there are in all
 * @param jobs  this page
 * @param next  the last id of this page, to ask for the next one with; null on the last page
 */
public record JobLinks(long total, List<JobLink> jobs, String next) {
}
