package dev.jobqueue.portable.jobrunr;

import dev.jobqueue.portable.kit.Telemetry;
import org.jobrunr.jobs.Job;
import org.jobrunr.jobs.filters.ApplyStateFilter;
import org.jobrunr.jobs.states.JobState;
import org.jobrunr.jobs.states.StateName;

/**
 * The job JobRunr runs, a static method whose arguments are the {@code BenchJob}'s fields, which JobRunr stores as
 * JSON in the job's row; JobRunr calls it by class and method name, so both are public. It reports the claim and
 * does the synthetic work; {@link Completions} reports the completion once JobRunr has saved it.
 */
public final class BenchJobs {

    private static volatile Telemetry telemetry;
    private static volatile int workMillis;

    private BenchJobs() {
    }

    static void reportTo(Telemetry telemetry, int workMillis) {
        BenchJobs.telemetry = telemetry;
        BenchJobs.workMillis = workMillis;
    }

    /**
     * One job.
     *
     * @param seq the job's number
     * @param enqueuedAtMicros when it was put, in microseconds of the wall clock
     * @param padding filler to the payload's size
     * @throws InterruptedException when the server stops under it
     */
    public static void run(long seq, long enqueuedAtMicros, String padding) throws InterruptedException {
        telemetry.claimed(enqueuedAtMicros);
        if (workMillis > 0) {
            Thread.sleep(workMillis);
        }
    }

    /** Counts a job completed when its SUCCEEDED state is saved: the filter runs after the save. */
    static final class Completions implements ApplyStateFilter {

        @Override
        public void onStateApplied(Job job, JobState oldState, JobState newState) {
            if (newState != null && newState.getName() == StateName.SUCCEEDED) {
                telemetry.completed(1);
            }
        }
    }
}
