package dev.jobqueue.internal.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jobqueue.internal.dispatch.RunningJobs;
import dev.jobqueue.internal.store.ClaimedJob;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class StuckJobsTest {

    private static final Instant START = Instant.parse("2026-01-01T10:00:00Z");

    private static RunningJobs.Entry running(String id, String queue, Instant startedAt) {
        return new RunningJobs.Entry(new ClaimedJob(id, queue, "{}", 1, START, START, "token", null, null, 0, null), START.plusSeconds(60), Thread.currentThread(),
                startedAt, false);
    }

    @Test
    void a_job_is_stuck_only_once_it_has_run_longer_than_its_queues_threshold() {
        List<RunningJobs.Entry> jobs = List.of(
                running("slow", "reports", START),
                running("fresh", "reports", START.plusSeconds(50)),
                running("short-threshold", "email", START.plusSeconds(50)));

        List<RunningJobs.Entry> stuck = StuckJobs.over(jobs, START.plusSeconds(61),
                queue -> queue.equals("email") ? Duration.ofSeconds(5) : Duration.ofMinutes(1));

        assertEquals(List.of("slow", "short-threshold"), stuck.stream().map(entry -> entry.job().id()).toList());
    }

    @Test
    void a_job_still_waiting_for_a_thread_is_never_stuck() {
        RunningJobs.Entry waiting = new RunningJobs.Entry(new ClaimedJob("w", "q", "{}", 1, START, START, "t", null, null, 0, null), START.plusSeconds(60), null, null,
                false);

        assertEquals(List.of(), StuckJobs.over(List.of(waiting), START.plus(Duration.ofDays(1)),
                queue -> Duration.ofSeconds(1)));
    }
}
