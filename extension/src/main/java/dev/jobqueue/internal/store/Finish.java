package dev.jobqueue.internal.store;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What finishing a job did beyond the job itself, for the events and wake-ups that follow the commit.
 *
 * @param releasedQueues   the queues of WAITING jobs it made PENDING
 * @param failedDependents the WAITING jobs that failed with it
 * @param finishedGroups   the groups it finished, with their counts by state
 */
public record Finish(Set<String> releasedQueues, List<FailedDependent> failedDependents,
        Map<String, Map<JobState, Long>> finishedGroups) {

    static final Finish NOTHING = new Finish(Set.of(), List.of(), Map.of());
}
