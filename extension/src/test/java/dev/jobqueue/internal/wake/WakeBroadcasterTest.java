package dev.jobqueue.internal.wake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.internal.store.NotifyChannel;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WakeBroadcasterTest {

    /** One send: when it started, and the queues its messages named. */
    private record Send(long at, List<String> queues) {
    }

    /** Records sends; fails the first {@code failures}, and answers {@code postgresql} for the others. */
    private static final class RecordingChannel extends NotifyChannel {
        final List<Send> sends = new CopyOnWriteArrayList<>();
        final AtomicInteger calls = new AtomicInteger();
        volatile int failures;
        volatile boolean postgresql = true;

        @Override
        public boolean send(List<String> messages) {
            long at = System.nanoTime();
            if (calls.incrementAndGet() <= failures) {
                throw new IllegalStateException("database down");
            }
            if (postgresql) {
                sends.add(new Send(at, messages.stream().map(m -> m.substring(0, m.indexOf(' '))).toList()));
            }
            return postgresql;
        }
    }

    private static final class Threads implements ManagedThreadFactory {
        final List<Thread> created = new CopyOnWriteArrayList<>();

        @Override
        public Thread newThread(Runnable task) {
            Thread thread = new Thread(task);
            created.add(thread);
            return thread;
        }

        @Override
        public ForkJoinWorkerThread newThread(ForkJoinPool pool) {
            throw new UnsupportedOperationException();
        }
    }

    private final RecordingChannel channel = new RecordingChannel();
    private final Threads threads = new Threads();
    private final WakeBroadcaster broadcaster = broadcaster(true);

    private WakeBroadcaster broadcaster(boolean enabled) {
        WakeBroadcaster created = new WakeBroadcaster();
        // Only a commit's wake-up, never the idle timeout, can make the sender send within a test's 5 s.
        created.idleNanos = TimeUnit.HOURS.toNanos(1);
        created.channel = channel;
        created.threads = threads;
        created.messages = new WakeMessages() {
            @Override
            public boolean enabled() {
                return enabled;
            }
        };
        return created;
    }

    @AfterEach
    void stop() {
        broadcaster.stop();
    }

    @Test
    void every_commit_is_followed_by_a_send_naming_its_queue_and_a_burst_takes_few_sends_at_least_the_gap_apart()
            throws Exception {
        broadcaster.start();
        broadcaster.committed("first");
        awaitTrue(() -> !channel.sends.isEmpty());
        assertEquals(List.of("first"), channel.sends.get(0).queues());

        List<Thread> putters = new ArrayList<>();
        Map<String, Long> lastCommit = new ConcurrentHashMap<>();
        for (int t = 0; t < 4; t++) {
            String queue = "queue-" + t;
            putters.add(new Thread(() -> {
                for (int i = 0; i < 2_000; i++) {
                    lastCommit.put(queue, System.nanoTime());
                    broadcaster.committed(queue);
                    if (i % 100 == 0) {
                        sleepMillis(1);
                    }
                }
            }));
        }
        putters.forEach(Thread::start);
        for (Thread putter : putters) {
            putter.join();
        }
        for (Map.Entry<String, Long> commit : lastCommit.entrySet()) {
            awaitTrue(() -> channel.sends.stream()
                    .anyMatch(send -> send.at() >= commit.getValue() && send.queues().contains(commit.getKey())));
        }

        List<Send> sends = List.copyOf(channel.sends);
        assertTrue(sends.size() < 8_000 / 10, sends.size() + " sends for 8,000 commits");
        for (int i = 1; i < sends.size(); i++) {
            long apart = sends.get(i).at() - sends.get(i - 1).at();
            assertTrue(apart >= WakeBroadcaster.MIN_GAP_NANOS / 2, "sends " + i + " apart by " + apart + " ns");
        }
    }

    @Test
    void a_send_that_fails_is_not_the_end_the_next_commit_is_sent() {
        channel.failures = 1;
        broadcaster.start();
        broadcaster.committed("while-down");
        awaitTrue(() -> channel.calls.get() == 1);
        broadcaster.committed("after");
        awaitTrue(() -> channel.sends.stream().anyMatch(send -> send.queues().contains("after")));
    }

    @Test
    void on_a_database_without_notify_the_sender_ends_at_its_first_send_and_commits_send_nothing() throws Exception {
        channel.postgresql = false;
        broadcaster.start();
        broadcaster.committed("mariadb");
        threads.created.get(0).join(5_000);
        assertFalse(threads.created.get(0).isAlive());
        broadcaster.committed("again");
        sleepMillis(50);
        assertEquals(1, channel.calls.get());
    }

    @Test
    void stop_ends_the_sender_and_commits_after_it_send_nothing() {
        broadcaster.start();
        broadcaster.stop();
        assertFalse(threads.created.get(0).isAlive());
        broadcaster.committed("late");
        sleepMillis(50);
        assertEquals(0, channel.calls.get());
    }

    @Test
    void with_notify_disabled_no_thread_starts_and_commits_send_nothing() {
        WakeBroadcaster disabled = broadcaster(false);
        disabled.start();
        disabled.committed("quiet");
        sleepMillis(50);
        assertTrue(threads.created.isEmpty());
        assertEquals(0, channel.calls.get());
    }

    private static void awaitTrue(BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "not within 5 s");
            sleepMillis(1);
        }
    }

    private static void sleepMillis(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
