package dev.jobqueue.internal.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jobqueue.internal.fixtures.ManualExecutor;
import dev.jobqueue.internal.store.ClaimedJob;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The batch of finished non-transactional jobs, on a scheduler the test runs by hand: no threads, no sleeps. */
class CompletionBatchTest {

    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");

    private final ManualExecutor scheduler = new ManualExecutor();
    private final List<List<String>> written = new ArrayList<>();
    private final CompletionBatch batch = new CompletionBatch(scheduler,
            jobs -> written.add(jobs.stream().map(ClaimedJob::id).toList()));

    private static ClaimedJob job(int n) {
        return new ClaimedJob("job-" + n, "reports", "{}", 1, T0, T0, "lease-" + n, null, null, 0, null);
    }

    @Test
    void jobs_wait_for_one_flush_scheduled_after_the_first_of_them() {
        IntStream.range(0, 3).forEach(n -> batch.add(job(n)));

        assertEquals(List.of(), written, "nothing is written before the flush");
        assertEquals(List.of(CompletionBatch.MAX_DELAY_MILLIS), scheduler.delaysMillis, "one flush, 5 ms after the first");

        scheduler.runScheduled();
        assertEquals(List.of(List.of("job-0", "job-1", "job-2")), written, "one transaction for the three");

        batch.add(job(3));
        assertEquals(2, scheduler.delaysMillis.size(), "the next job schedules the next flush");
    }

    @Test
    void a_full_batch_is_written_at_once_by_the_runner_that_filled_it() {
        IntStream.range(0, CompletionBatch.MAX_SIZE).forEach(n -> batch.add(job(n)));

        assertEquals(1, written.size());
        assertEquals(CompletionBatch.MAX_SIZE, written.get(0).size());

        batch.add(job(CompletionBatch.MAX_SIZE));
        assertEquals(1, written.size(), "the next job waits for the flush");
        scheduler.runScheduled();
        assertEquals(List.of("job-" + CompletionBatch.MAX_SIZE), written.get(1));
    }

    @Test
    void a_flush_writes_batches_of_at_most_the_maximum_in_the_order_the_jobs_finished() {
        int jobs = 2 * CompletionBatch.MAX_SIZE + 44;
        IntStream.range(0, jobs).forEach(n -> batch.add(job(n)));
        batch.flush();

        assertEquals(List.of(CompletionBatch.MAX_SIZE, CompletionBatch.MAX_SIZE, 44),
                written.stream().map(List::size).toList());
        assertEquals(IntStream.range(0, jobs).mapToObj(n -> "job-" + n).toList(),
                written.stream().flatMap(List::stream).toList());
    }

    @Test
    void when_the_scheduler_is_stopping_a_job_is_written_at_once_rather_than_left_waiting() {
        scheduler.stopping = true;

        batch.add(job(0));

        assertEquals(List.of(List.of("job-0")), written);
    }
}
