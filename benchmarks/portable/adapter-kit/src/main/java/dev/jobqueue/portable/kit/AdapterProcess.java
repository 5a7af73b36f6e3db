package dev.jobqueue.portable.kit;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.ThreadFactory;

/**
 * The parts every adapter runs beside its system: the telemetry, the producer and the depth poller, each on a
 * thread of its own, and stdin drained so that a harness writing pacing tokens never blocks. {@link #stop()} ends
 * them in the order that loses no sample.
 */
public final class AdapterProcess {

    private static final System.Logger LOG = System.getLogger(AdapterProcess.class.getName());

    private final AdapterSettings settings;
    private final Telemetry telemetry;
    private final Producer producer;
    private final QueueDepth depth;
    private final ThreadFactory threads;
    private volatile boolean stopped;

    /**
     * @param settings the adapter's settings
     * @param out stdout
     * @param sink how the system puts jobs
     * @param depth how it counts its waiting jobs
     * @param threads makes the producer's, the poller's and the stdin drain's threads: a server's managed thread
     *                factory, so that the sink may use transactions; daemon threads in a plain JVM
     */
    public AdapterProcess(AdapterSettings settings, PrintStream out, JobSink sink, QueueDepth depth,
                          ThreadFactory threads) {
        this.settings = settings;
        this.telemetry = new Telemetry(settings, out);
        this.producer = new Producer(settings, telemetry, sink);
        this.depth = depth;
        this.threads = threads;
    }

    /** The same with daemon threads, for a plain JVM. */
    public AdapterProcess(AdapterSettings settings, PrintStream out, JobSink sink, QueueDepth depth) {
        this(settings, out, sink, depth, AdapterProcess::daemon);
    }

    /** What workers report their claims and completions to. */
    public Telemetry telemetry() {
        return telemetry;
    }

    /**
     * Prints the descriptor and starts producing, sampling and counting the queue.
     *
     * @param eventTables the tables of adapter.json
     * @param version the system's version
     * @param schemaVersion its schema's version
     */
    public void start(List<String> eventTables, String version, String schemaVersion) {
        telemetry.start(eventTables, version, schemaVersion);
        threads.newThread(producer).start();
        threads.newThread(this::pollDepth).start();
        threads.newThread(AdapterProcess::drainStdin).start();
    }

    /** Stops the producer and the poller, then the telemetry after its last sample. */
    public void stop() {
        stopped = true;
        producer.stop();
        telemetry.stop();
    }

    private void pollDepth() {
        while (!stopped) {
            try {
                telemetry.queueDepth(depth.count());
            } catch (Exception e) {
                LOG.log(System.Logger.Level.DEBUG, "queue depth not read: " + e);
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private static void drainStdin() {
        byte[] buffer = new byte[8192];
        try (InputStream in = System.in) {
            while (in.read(buffer) >= 0) {
                // the harness's pacing tokens: this adapter paces itself (PRODUCER_PACING=adapter)
            }
        } catch (java.io.IOException closed) {
            // the harness closed the pipe
        }
    }

    private static Thread daemon(Runnable task) {
        Thread thread = new Thread(task, "adapter");
        thread.setDaemon(true);
        return thread;
    }

    /** The settings this process runs with. */
    public AdapterSettings settings() {
        return settings;
    }
}
