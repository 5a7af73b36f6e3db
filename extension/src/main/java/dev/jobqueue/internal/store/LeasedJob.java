package dev.jobqueue.internal.store;

/**
 * One attempt of a job: the job and the lease token it runs under. Two attempts of one job never share a token.
 *
 * @param id         the job id
 * @param leaseToken the attempt's lease token
 */
public record LeasedJob(String id, String leaseToken) {

    public static LeasedJob of(ClaimedJob job) {
        return new LeasedJob(job.id(), job.leaseToken());
    }
}
