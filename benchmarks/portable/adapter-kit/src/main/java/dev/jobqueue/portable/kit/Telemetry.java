package dev.jobqueue.portable.kit;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import java.io.PrintStream;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The adapter's stdout: the descriptor once, then every {@code SAMPLE_EVERY_S} seconds, aligned to the wall clock,
 * the contract's samples: claim p50/p95/p99 over the last 30 seconds, enqueue and completion rates, queue depth.
 * Thread-safe; workers and the producer only add to counters and a histogram.
 */
public final class Telemetry {

    private static final int CLAIM_WINDOW_SECONDS = 30;

    private final AdapterSettings settings;
    private final PrintStream out;
    private final Recorder claims = new Recorder(3);
    private final Deque<Histogram> claimWindow = new ArrayDeque<>();
    private final LongAdder enqueued = new LongAdder();
    private final LongAdder completed = new LongAdder();
    private volatile long queueDepth;
    private volatile Thread sampler;

    /**
     * @param settings the adapter's settings
     * @param out where the JSONL goes: stdout, which must carry nothing else the harness would misread
     */
    public Telemetry(AdapterSettings settings, PrintStream out) {
        this.settings = settings;
        this.out = out;
    }

    /** Microseconds of the wall clock, which {@link BenchJob#enqueuedAtMicros()} and claims compare. */
    public static long nowMicros() {
        return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
    }

    /** A worker started a job put at {@code enqueuedAtMicros}. */
    public void claimed(long enqueuedAtMicros) {
        claims.recordValue(Math.max(0, nowMicros() - enqueuedAtMicros));
    }

    /** The producer put {@code count} jobs. */
    public void enqueued(int count) {
        enqueued.add(count);
    }

    /** {@code count} jobs completed: their completion is durable. */
    public void completed(int count) {
        completed.add(count);
    }

    /** The latest count of jobs waiting to be claimed. */
    public void queueDepth(long depth) {
        queueDepth = depth;
    }

    /** The depth last reported, for the depth-target producer. */
    public long queueDepth() {
        return queueDepth;
    }

    /**
     * Prints the startup descriptor, which the harness waits for, then starts the sampler.
     *
     * @param eventTables the tables the harness watches, as in adapter.json
     * @param version the system's version
     * @param schemaVersion the version of its schema, as the system reports it
     */
    public void start(List<String> eventTables, String version, String schemaVersion) {
        JsonArrayBuilder tables = Json.createArrayBuilder();
        eventTables.forEach(tables::add);
        emit(Json.createObjectBuilder().add("kind", "descriptor").add("system", settings.system())
                .add("event_tables", tables).add("extensions", Json.createArrayBuilder())
                .add("version", version).add("schema_version", schemaVersion)
                .add("db_name", settings.database().name()).add("started_at", Instant.now().toString()).build());
        Thread thread = new Thread(this::sampleForever, "telemetry");
        thread.setDaemon(true);
        sampler = thread;
        thread.start();
    }

    /** Stops the sampler after one last sample. */
    public void stop() {
        Thread thread = sampler;
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(2_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void sampleForever() {
        long everyMillis = settings.sampleEverySeconds() * 1000L;
        long lastEnqueued = 0;
        long lastCompleted = 0;
        try {
            while (true) {
                Thread.sleep(everyMillis - System.currentTimeMillis() % everyMillis);
                long enqueuedNow = enqueued.sum();
                long completedNow = completed.sum();
                sample(enqueuedNow - lastEnqueued, completedNow - lastCompleted);
                lastEnqueued = enqueuedNow;
                lastCompleted = completedNow;
            }
        } catch (InterruptedException stopping) {
            sample(enqueued.sum() - lastEnqueued, completed.sum() - lastCompleted);
        }
    }

    private void sample(long enqueuedInWindow, long completedInWindow) {
        Histogram window = claimsOverWindow();
        String at = Instant.now().truncatedTo(ChronoUnit.MILLIS).toString();
        double seconds = settings.sampleEverySeconds();
        metric(at, "claim_p50_ms", window.getValueAtPercentile(50) / 1000.0, CLAIM_WINDOW_SECONDS);
        metric(at, "claim_p95_ms", window.getValueAtPercentile(95) / 1000.0, CLAIM_WINDOW_SECONDS);
        metric(at, "claim_p99_ms", window.getValueAtPercentile(99) / 1000.0, CLAIM_WINDOW_SECONDS);
        metric(at, "enqueue_rate", enqueuedInWindow / seconds, seconds);
        metric(at, "completion_rate", completedInWindow / seconds, seconds);
        if (settings.instanceId() == 0) {
            metric(at, "queue_depth", queueDepth, 0);
        }
    }

    private Histogram claimsOverWindow() {
        claimWindow.addLast(claims.getIntervalHistogram());
        while (claimWindow.size() > Math.max(1, CLAIM_WINDOW_SECONDS / settings.sampleEverySeconds())) {
            claimWindow.removeFirst();
        }
        Histogram sum = new Histogram(3);
        claimWindow.forEach(sum::add);
        return sum;
    }

    private void metric(String at, String name, double value, double windowSeconds) {
        emit(Json.createObjectBuilder().add("t", at).add("system", settings.system()).add("kind", "adapter")
                .add("subject_kind", "adapter").add("subject", "").add("metric", name).add("value", value)
                .add("window_s", windowSeconds).add("instance_id", settings.instanceId()).build());
    }

    private void emit(JsonObject record) {
        synchronized (out) {
            out.print(record + "\n");
            out.flush();
        }
    }
}
