package dev.jobqueue.portable.kit;

/**
 * One job's payload: its number, when it was put (microseconds of the wall clock, for the claim latency), and
 * padding to the contract's payload size.
 *
 * @param seq the job's number in this process
 * @param enqueuedAtMicros when the producer put it
 * @param padding filler text
 */
public record BenchJob(long seq, long enqueuedAtMicros, String padding) {
}
