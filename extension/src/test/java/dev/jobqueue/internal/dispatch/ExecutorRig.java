package dev.jobqueue.internal.dispatch;

import dev.jobqueue.JobContext;
import dev.jobqueue.JobFailed;
import dev.jobqueue.JobRetried;
import dev.jobqueue.internal.config.Backoff;
import dev.jobqueue.internal.config.QueueOptions;
import dev.jobqueue.internal.consumer.ConsumerMethod;
import dev.jobqueue.internal.fixtures.FakeFinishStore;
import dev.jobqueue.internal.fixtures.FakeLeaseStore;
import dev.jobqueue.internal.fixtures.RecordingEvent;
import dev.jobqueue.internal.fixtures.RecordingTracing;
import dev.jobqueue.internal.fixtures.SettableClock;
import dev.jobqueue.internal.fixtures.TestOptions;
import dev.jobqueue.internal.metrics.NoopJobMetrics;
import dev.jobqueue.internal.payload.PayloadCodec;
import dev.jobqueue.internal.store.Transactions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@link JobExecutor} and the beans it calls, wired by hand, with the clock, the store, the consumer, the
 * transactions, the dispatcher and the events played by the test. No server, no database, no sleep.
 */
final class ExecutorRig {

    static final Instant T0 = Instant.parse("2026-03-01T09:00:00Z");
    static final Duration FIRST_BACKOFF = Duration.ofSeconds(10);

    /** Plays the consumer: does what the test says, and records the payloads it was called with. */
    static final class ScriptedInvoker extends ConsumerInvoker {
        final List<Object> payloads = new ArrayList<>();
        final List<JobContext> contexts = new ArrayList<>();
        /** The payloads of each call, for a batch consumer. */
        final List<List<Object>> calls = new ArrayList<>();
        Exception throwing;
        /** A payload that makes every call it is in throw, for a batch consumer. */
        Object poison;
        Runnable during = () -> { };

        @Override
        void invoke(ConsumerMethod consumer, List<Object> payloads, List<JobContext> contexts) throws Exception {
            this.payloads.addAll(payloads);
            this.contexts.addAll(contexts);
            calls.add(payloads);
            during.run();
            if (throwing != null) {
                throw throwing;
            }
            if (poison != null && payloads.contains(poison)) {
                throw new IllegalStateException("poison " + poison);
            }
        }
    }

    /**
     * Runs the work directly, as inside a new transaction, and plays its rollback flag. Work that throws rolls
     * back: the store forgets what the work recorded.
     */
    static final class DirectTransactions extends Transactions {
        private final FakeFinishStore store;
        boolean rollbackOnly;
        int begun;
        /** What the commit throws, after the work returned: everything the work recorded rolls back. */
        Exception failingCommit;

        DirectTransactions(FakeFinishStore store) {
            this.store = store;
        }

        @Override
        public <T> T inConsumerTransaction(java.util.concurrent.Callable<T> work) throws Exception {
            begun++;
            rollbackOnly = false;
            int recordedBefore = store.recorded.size();
            try {
                T result = work.call();
                if (failingCommit != null) {
                    throw failingCommit;
                }
                return result;
            } catch (Exception | Error e) {
                store.recorded.subList(recordedBefore, store.recorded.size()).clear();
                throw e;
            }
        }

        @Override
        public boolean isRollbackOnly() {
            return rollbackOnly;
        }
    }

    /** Records the queues woken, and those woken to be read from their first due job (rewound). */
    static final class RecordingDispatcher extends Dispatcher {
        final List<String> woken = new ArrayList<>();
        final List<String> rewound = new ArrayList<>();
        final List<Instant> retryWakes = new ArrayList<>();
        /** Whether the node plays one that has begun to stop. */
        boolean stoppingNow;

        @Override
        public boolean stopping() {
            return stoppingNow;
        }

        @Override
        public void wake(String queue) {
            woken.add(queue);
        }

        @Override
        public void rewind(String queue) {
            rewound.add(queue);
        }

        @Override
        public void wakeWhenRetryDue(String queue, Instant runAt) {
            retryWakes.add(runAt);
        }
    }

    final SettableClock clock = new SettableClock(T0);
    final FakeFinishStore store = new FakeFinishStore();
    final FakeLeaseStore leases = new FakeLeaseStore();
    final UnsettledLeases unsettled = new UnsettledLeases(leases, clock);
    final ScriptedInvoker consumer = new ScriptedInvoker();
    final DirectTransactions transactions = new DirectTransactions(store);
    final RecordingDispatcher dispatcher = new RecordingDispatcher();
    final RecordingEvent<JobFailed> failures = new RecordingEvent<>();
    final RecordingEvent<JobRetried> retries = new RecordingEvent<>();
    final RecordingTracing tracing = new RecordingTracing();
    final JobExecutor executor = new JobExecutor();

    ExecutorRig() {
        NoopJobMetrics metrics = new NoopJobMetrics();
        AttemptRecorder recorder = new AttemptRecorder();
        recorder.clock = clock;
        recorder.store = store;
        recorder.failures = failures;
        recorder.retries = retries;
        FinishAnnouncer announcer = new FinishAnnouncer();
        announcer.clock = clock;
        announcer.failures = failures;
        announcer.cancels = new RecordingEvent<>();
        announcer.groupsFinished = new RecordingEvent<>();
        announcer.dispatcher = dispatcher;
        announcer.metrics = metrics;
        recorder.announcer = announcer;
        recorder.dispatcher = dispatcher;
        recorder.metrics = metrics;
        recorder.leases = leases;
        recorder.unsettled = unsettled;
        SingleJobCall single = new SingleJobCall();
        single.clock = clock;
        single.invoker = consumer;
        single.transactions = transactions;
        single.recorder = recorder;
        single.metrics = metrics;
        single.tracing = tracing;
        BatchCall batch = new BatchCall();
        batch.clock = clock;
        batch.invoker = consumer;
        batch.transactions = transactions;
        batch.recorder = recorder;
        batch.single = single;
        batch.metrics = metrics;
        batch.tracing = tracing;
        batch.dispatcher = dispatcher;
        executor.clock = clock;
        executor.codec = new PayloadCodec();
        executor.store = store;
        executor.recorder = recorder;
        executor.single = single;
        executor.batch = batch;
        executor.metrics = metrics;
    }

    static QueueOptions options(int maxAttempts, boolean transactional, List<Class<? extends Throwable>> successOn) {
        return TestOptions.queue("reports").maxAttempts(maxAttempts)
                .backoff(new Backoff.Exponential(FIRST_BACKOFF, 2.0, Duration.ofMinutes(5), 0.0))
                .successOn(successOn).transactional(transactional).build();
    }

    static QueueOptions options(int maxAttempts) {
        return options(maxAttempts, true, List.of());
    }
}
