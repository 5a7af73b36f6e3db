package dev.jobqueue.internal.dispatch;

import dev.jobqueue.internal.config.QueueOptions;
import dev.jobqueue.internal.consumer.ConsumerMethod;
import dev.jobqueue.internal.store.ClaimedJob;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Plays the consumer's outcome for each job, and records the jobs run, those run together in one transaction,
 * and the DONEs batched.
 */
final class ScriptedJobExecutor extends JobExecutor {
    final List<String> ran = new ArrayList<>();
    final List<List<String>> together = new ArrayList<>();
    final List<List<String>> batchedDone = new ArrayList<>();
    Function<ClaimedJob, Outcome> outcome = job -> Outcome.DONE;

    @Override
    public Outcome execute(ClaimedJob job, ConsumerMethod consumer, QueueOptions options) {
        ran.add(job.id());
        return outcome.apply(job);
    }

    @Override
    public List<Outcome> executeTogether(List<ClaimedJob> jobs, ConsumerMethod consumer, QueueOptions options) {
        together.add(jobs.stream().map(ClaimedJob::id).toList());
        jobs.forEach(job -> ran.add(job.id()));
        return jobs.stream().map(outcome).toList();
    }

    @Override
    public void recordSucceeded(List<ClaimedJob> jobs, QueueOptions options) {
        batchedDone.add(jobs.stream().map(ClaimedJob::id).toList());
    }
}
