package dev.jobqueue.it.model;

import dev.jobqueue.Consumer;
import dev.jobqueue.GroupFinished;
import dev.jobqueue.JobContext;
import dev.jobqueue.QueueBackoffException;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The model's consumers, one of each kind, and what they record. Each job's payload names its script, which decides
 * every attempt's outcome: {@link Script}.
 */
public class ModelConsumers {

    public static final String SINGLE = "model-single";
    public static final String BATCH = "model-batch";
    public static final String PER_TX = "model-tx";
    public static final String LIMITED = "model-limited";
    public static final List<String> QUEUES = List.of(SINGLE, BATCH, PER_TX, LIMITED);
    public static final int MAX_ATTEMPTS = 2;

    /** A job's payload: its number in the sequence, the key of its script. */
    public record ModelJob(int n) {
    }

    /** The exception the queues count as success ({@code successOn}). */
    public static class CountedAsSuccess extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public CountedAsSuccess() {
            super("model: counted as success");
        }
    }

    /**
     * One consumer call: its queue, jobs, transaction and how it ended ({@code OK}, or the outcome it acted out).
     */
    public record Call(String queue, List<String> ids, List<Integer> attempts, Object transaction, String ended) {
    }

    /** The scripts of the jobs put, the calls made and the GroupFinished events seen, in this application. */
    @ApplicationScoped
    public static class Scripts {
        private final Map<Integer, Script> scripts = new ConcurrentHashMap<>();
        private final Set<String> backoffsUsed = ConcurrentHashMap.newKeySet();
        private final List<Call> calls = new CopyOnWriteArrayList<>();
        private final List<GroupFinished> groupEvents = new CopyOnWriteArrayList<>();

        @Resource(lookup = "java:comp/TransactionSynchronizationRegistry")
        TransactionSynchronizationRegistry transactions;

        public void clear() {
            scripts.clear();
            backoffsUsed.clear();
            calls.clear();
            groupEvents.clear();
        }

        public void put(int n, Script script) {
            scripts.put(n, script);
        }

        public Script script(int n) {
            return scripts.getOrDefault(n, Script.parse("OOO"));
        }

        /** Whether job {@code n}'s next call at {@code attempt} throws {@link QueueBackoffException}. */
        public boolean backoffAhead(int n, int attempt) {
            return script(n).backoffAt() == attempt && !backoffsUsed.contains(n + ":" + attempt);
        }

        public List<Call> calls() {
            return List.copyOf(calls);
        }

        public List<GroupFinished> groupEvents() {
            return List.copyOf(groupEvents);
        }

        void onGroupFinished(@Observes GroupFinished finished) {
            groupEvents.add(finished);
        }

        /** Acts out the scripts of one call's jobs, in order; the first one that is not OK decides the call. */
        void act(String queue, List<ModelJob> jobs, List<JobContext> contexts) {
            String ended = "OK";
            try {
                for (int i = 0; i < jobs.size(); i++) {
                    int n = jobs.get(i).n();
                    int attempt = contexts.get(i).attempt();
                    if (script(n).backoffAt() == attempt && backoffsUsed.add(n + ":" + attempt)) {
                        ended = "BACKOFF";
                        // Longer than any clock step of a sequence: the queue waits until the model resumes it.
                        throw new QueueBackoffException(Duration.ofDays(10), "model: backoff");
                    }
                    Outcome outcome = script(n).at(attempt);
                    ended = outcome.name();
                    switch (outcome) {
                        case FAIL -> throw new IllegalStateException("model: failure of job " + n);
                        case SUCCESS_ON -> throw new CountedAsSuccess();
                        case ROLLBACK -> {
                            transactions.setRollbackOnly();
                            return;
                        }
                        default -> ended = "OK";
                    }
                }
            } finally {
                calls.add(new Call(queue, contexts.stream().map(c -> c.id().toString()).toList(),
                        contexts.stream().map(JobContext::attempt).toList(), transactions.getTransactionKey(),
                        ended));
            }
        }
    }

    /** How one attempt ends. */
    public enum Outcome {
        OK('O'), FAIL('F'), SUCCESS_ON('S'), ROLLBACK('R');

        final char letter;

        Outcome(char letter) {
            this.letter = letter;
        }

        /** Whether the attempt leaves the job DONE. */
        public boolean done() {
            return this == OK || this == SUCCESS_ON;
        }
    }

    /**
     * A job's outcomes by attempt, such as {@code "FOS"}, and the attempt whose first call throws
     * {@link QueueBackoffException} (0 for none), written {@code "FOS/b2"}.
     */
    public record Script(List<Outcome> outcomes, int backoffAt) {

        public static Script parse(String text) {
            String[] parts = text.split("/b");
            List<Outcome> outcomes = new ArrayList<>();
            for (char letter : parts[0].toCharArray()) {
                outcomes.add(List.of(Outcome.values()).stream().filter(o -> o.letter == letter).findFirst()
                        .orElseThrow());
            }
            return new Script(outcomes, parts.length > 1 ? Integer.parseInt(parts[1]) : 0);
        }

        public Outcome at(int attempt) {
            return outcomes.get(Math.min(attempt, outcomes.size()) - 1);
        }

        @Override
        public String toString() {
            StringBuilder text = new StringBuilder();
            outcomes.forEach(o -> text.append(o.letter));
            return backoffAt == 0 ? text.toString() : text + "/b" + backoffAt;
        }
    }

    /** A consumer of one job per call. */
    @ApplicationScoped
    public static class Single {
        @Inject
        Scripts scripts;

        @Consumer(queue = SINGLE, maxAttempts = MAX_ATTEMPTS, successOn = CountedAsSuccess.class)
        public void run(ModelJob job, JobContext context) {
            scripts.act(SINGLE, List.of(job), List.of(context));
        }
    }

    /** A batch consumer. */
    @ApplicationScoped
    public static class Batch {
        @Inject
        Scripts scripts;

        @Consumer(queue = BATCH, maxAttempts = MAX_ATTEMPTS, jobsPerCall = 4, successOn = CountedAsSuccess.class)
        public void run(List<ModelJob> jobs, List<JobContext> contexts) {
            scripts.act(BATCH, jobs, contexts);
        }
    }

    /** A consumer of one job per call that runs several jobs per transaction. */
    @ApplicationScoped
    public static class PerTransaction {
        @Inject
        Scripts scripts;

        @Consumer(queue = PER_TX, maxAttempts = MAX_ATTEMPTS, jobsPerTransaction = 4,
                successOn = CountedAsSuccess.class)
        public void run(ModelJob job, JobContext context) {
            scripts.act(PER_TX, List.of(Objects.requireNonNull(job)), List.of(context));
        }
    }

    /**
     * A consumer of one job per call under a cluster-wide rate limit that no drain reaches: every claim goes through
     * the queue's limits (its row locked, its starts counted, jobs claimed ahead of the runners).
     */
    @ApplicationScoped
    public static class Limited {
        @Inject
        Scripts scripts;

        @Consumer(queue = LIMITED, maxAttempts = MAX_ATTEMPTS, rateLimit = "100000/1s",
                successOn = CountedAsSuccess.class)
        public void run(ModelJob job, JobContext context) {
            scripts.act(LIMITED, List.of(job), List.of(context));
        }
    }
}
