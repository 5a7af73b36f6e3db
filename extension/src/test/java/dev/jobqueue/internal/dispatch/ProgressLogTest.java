package dev.jobqueue.internal.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jobqueue.internal.fixtures.SettableClock;
import dev.jobqueue.internal.store.ProgressStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ProgressLogTest {

    private final List<String> writes = new ArrayList<>();
    private final ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1);
    private final ProgressLog log = new ProgressLog();

    ProgressLogTest() {
        log.scheduler = scheduler;
        log.clock = new SettableClock(Instant.parse("2026-12-04T00:00:00Z"));
        log.store = new ProgressStore() {
            @Override
            public void write(String id, int attempt, double fraction, String note, Instant at) {
                writes.add(id + " " + attempt + " " + fraction + " " + note);
            }
        };
    }

    @AfterEach
    void stop() {
        log.stop();
        scheduler.shutdownNow();
    }

    @Test
    void a_round_writes_each_job_once_with_its_latest_report_and_the_next_round_nothing() {
        for (int step = 1; step <= 1_000; step++) {
            log.report("a", 1, step / 1_000.0, "step " + step);
        }
        log.report("b", 2, 0.5, null);

        log.writeWaiting();
        log.writeWaiting();

        assertEquals(List.of("a 1 1.0 step 1000", "b 2 0.5 null"), writes.stream().sorted().toList());
    }

    @Test
    void a_report_after_the_stop_is_not_kept() {
        log.stop();
        log.report("a", 1, 0.5, null);

        log.writeWaiting();

        assertEquals(List.of(), writes);
    }
}
