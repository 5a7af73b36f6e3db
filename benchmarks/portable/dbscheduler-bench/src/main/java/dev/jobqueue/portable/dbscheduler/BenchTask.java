package dev.jobqueue.portable.dbscheduler;

import com.github.kagkarlsson.scheduler.task.CompletionHandler;
import com.github.kagkarlsson.scheduler.task.ExecutionContext;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import dev.jobqueue.portable.kit.BenchJob;
import dev.jobqueue.portable.kit.Telemetry;

/**
 * The benchmark's one-time task, its data the {@link BenchJob}. It reports the claim when it starts, does the
 * synthetic work, and reports the completion only once db-scheduler has deleted the row (the completion a one-time
 * task has by default, {@code OnCompleteRemove}), so that a completion counted is a durable one.
 */
final class BenchTask extends OneTimeTask<BenchJob> {

    /** The task's name, the {@code task_name} of its rows. */
    static final String NAME = "bench-job";

    private final Telemetry telemetry;
    private final int workMillis;

    BenchTask(Telemetry telemetry, int workMillis) {
        super(NAME, BenchJob.class);
        this.telemetry = telemetry;
        this.workMillis = workMillis;
    }

    @Override
    public void executeOnce(TaskInstance<BenchJob> instance, ExecutionContext context) {
        telemetry.claimed(instance.getData().enqueuedAtMicros());
        if (workMillis > 0) {
            try {
                Thread.sleep(workMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted: the scheduler is stopping", e);
            }
        }
    }

    @Override
    public CompletionHandler<BenchJob> execute(TaskInstance<BenchJob> instance, ExecutionContext context) {
        executeOnce(instance, context);
        return (complete, operations) -> {
            operations.remove();
            telemetry.completed(1);
        };
    }
}
