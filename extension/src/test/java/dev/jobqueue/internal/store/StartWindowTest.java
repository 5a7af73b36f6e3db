package dev.jobqueue.internal.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.internal.config.RateLimit;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class StartWindowTest {

    private static final RateLimit FIVE_PER_SECOND = new RateLimit(5, Duration.ofSeconds(1));
    private static final Instant T = Instant.parse("2026-11-28T12:00:00Z");

    @Test
    void a_period_allows_the_permits_and_a_start_leaves_the_window_one_period_later() {
        StartWindow window = StartWindow.parse(null);
        assertEquals(5, window.room(FIVE_PER_SECOND, T));
        window = window.plus(FIVE_PER_SECOND, T, 3);
        window = window.plus(FIVE_PER_SECOND, T.plusMillis(400), 2);
        assertEquals(0, window.room(FIVE_PER_SECOND, T.plusMillis(999)));
        assertEquals(T.plusSeconds(1), window.nextRoomAt(FIVE_PER_SECOND, T.plusMillis(500)));
        assertEquals(3, window.room(FIVE_PER_SECOND, T.plusSeconds(1)));
        assertEquals(5, window.room(FIVE_PER_SECOND, T.plusMillis(1400)));
    }

    @Test
    void the_window_survives_its_text_and_forgets_starts_older_than_a_period_when_it_is_written() {
        StartWindow window = StartWindow.parse(null).plus(FIVE_PER_SECOND, T, 2)
                .plus(FIVE_PER_SECOND, T.plusMillis(1500), 1);
        assertEquals((T.plusMillis(1500).toEpochMilli()) + ":1", window.toString());
        assertEquals(4, StartWindow.parse(window.toString()).room(FIVE_PER_SECOND, T.plusMillis(1600)));
    }

    @Test
    void text_that_is_not_a_window_is_refused_and_a_full_window_lets_nothing_start_for_a_period() {
        assertThrows(IllegalArgumentException.class, () -> StartWindow.parse("12:x"));
        assertThrows(IllegalArgumentException.class, () -> StartWindow.parse("12"));
        assertThrows(IllegalArgumentException.class, () -> StartWindow.parse("12:0"));
        StartWindow full = StartWindow.full(FIVE_PER_SECOND, T);
        assertEquals(0, full.room(FIVE_PER_SECOND, T.plusMillis(999)));
        assertEquals(5, full.room(FIVE_PER_SECOND, T.plusSeconds(1)));
    }

    /**
     * Claims at random times, each taking what the window allows, never let more than the permits start in any
     * window of one period, however many entries merge; and a backlog gets the whole limit.
     */
    @Test
    void no_period_ever_sees_more_starts_than_the_limit_and_a_backlog_gets_it_all() {
        RateLimit limit = new RateLimit(200, Duration.ofMillis(1000));
        Random random = new Random(42);
        StartWindow window = StartWindow.parse(null);
        Deque<Long> starts = new ArrayDeque<>();
        long now = T.toEpochMilli();
        long end = now + 20_000;
        long started = 0;
        while (now < end) {
            Instant at = Instant.ofEpochMilli(now);
            int wanted = 1 + random.nextInt(8);
            int taken = Math.min(wanted, window.room(limit, at));
            window = StartWindow.parse(window.plus(limit, at, taken).toString());
            for (int i = 0; i < taken; i++) {
                starts.addLast(now);
            }
            started += taken;
            while (starts.peekFirst() <= now - limit.period().toMillis()) {
                starts.removeFirst();
            }
            assertTrue(starts.size() <= limit.permits(), "starts in the period up to " + now + ": " + starts.size());
            assertTrue(window.toString().length() < 2000, window.toString());
            now += 1 + random.nextInt(9);
        }
        // Merged entries look later than they were, so a little of the allowance is lost, never more.
        assertTrue(started >= 0.8 * 20 * limit.permits(), "started " + started);
    }

    /**
     * Claims that take jobs ahead of their runners, each of which starts at some time up to its deadline, never let
     * more than the permits start in any window of one period.
     */
    @Test
    void starts_claimed_ahead_and_counted_at_their_deadline_never_exceed_the_limit_in_any_period() {
        RateLimit limit = new RateLimit(200, Duration.ofMillis(1000));
        long within = 100;
        Random random = new Random(7);
        StartWindow window = StartWindow.parse(null);
        List<Long> starts = new ArrayList<>();
        long now = T.toEpochMilli();
        long end = now + 20_000;
        while (now < end) {
            Instant at = Instant.ofEpochMilli(now);
            int taken = Math.min(1 + random.nextInt(30), window.room(limit, at));
            int atOnce = Math.min(taken, random.nextInt(4));
            window = StartWindow.parse(window.plus(limit, at, atOnce, at.plusMillis(within), taken - atOnce)
                    .toString());
            for (int i = 0; i < taken; i++) {
                starts.add(i < atOnce ? now : now + random.nextInt((int) within + 1));
            }
            now += 1 + random.nextInt(9);
        }
        Collections.sort(starts);
        int first = 0;
        for (int last = 0; last < starts.size(); last++) {
            while (starts.get(first) <= starts.get(last) - limit.period().toMillis()) {
                first++;
            }
            assertTrue(last - first + 1 <= limit.permits(),
                    (last - first + 1) + " starts in the period up to " + starts.get(last));
        }
        // Counted at their deadlines, starts taken ahead hold their permits a little longer than they needed.
        assertTrue(starts.size() >= 0.8 * 20 * limit.permits(), "started " + starts.size());
    }
}
