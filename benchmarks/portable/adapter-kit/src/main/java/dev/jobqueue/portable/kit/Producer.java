package dev.jobqueue.portable.kit;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

/**
 * Puts jobs through a {@link JobSink} until stopped. In fixed mode the offered load is credited on real elapsed time
 * (the contract's "Producer pacing"), at the rate the control file gives or {@code PRODUCER_RATE}; in depth-target
 * mode it tops the queue up to {@code TARGET_DEPTH}. A put that fails is logged, waited on for 200 ms and followed by
 * the next: the credit it did not spend stays, so jobs offered during an outage are put once the database is back.
 */
public final class Producer implements Runnable {

    private static final System.Logger LOG = System.getLogger(Producer.class.getName());
    private static final long RATE_FILE_EVERY_NANOS = 1_000_000_000L;

    private final AdapterSettings settings;
    private final Telemetry telemetry;
    private final JobSink sink;
    private final String padding;
    private volatile boolean stopped;
    private long seq;
    private double rate;
    private long rateReadAt;
    private boolean rateRead;
    private long lastFailureLog;

    /**
     * @param settings the adapter's settings
     * @param telemetry counts what was put; gives the depth in depth-target mode
     * @param sink how the system puts jobs
     */
    public Producer(AdapterSettings settings, Telemetry telemetry, JobSink sink) {
        this.settings = settings;
        this.telemetry = telemetry;
        this.sink = sink;
        this.padding = "x".repeat(Math.max(0, settings.payloadBytes() - 64));
        this.rate = settings.producerRate();
    }

    /** Ends the loop after the put under way. */
    public void stop() {
        stopped = true;
    }

    @Override
    public void run() {
        double credit = 0;
        long last = System.nanoTime();
        while (!stopped) {
            int count;
            if (settings.fixedRate()) {
                long now = System.nanoTime();
                credit += currentRate(now) * (now - last) / 1e9;
                last = now;
                count = (int) Math.min(settings.batchMax(), Math.floor(credit));
            } else {
                count = (int) Math.min(settings.batchMax(), settings.targetDepth() - telemetry.queueDepth());
            }
            if (count <= 0) {
                pause(settings.batchMillis());
                continue;
            }
            if (put(count)) {
                credit -= count;
                if (!settings.fixedRate()) {
                    telemetry.queueDepth(telemetry.queueDepth() + count);
                }
            } else {
                pause(200);
            }
        }
    }

    private boolean put(int count) {
        List<BenchJob> jobs = new ArrayList<>(count);
        long now = Telemetry.nowMicros();
        for (int i = 0; i < count; i++) {
            jobs.add(new BenchJob(++seq, now, padding));
        }
        try {
            sink.put(jobs);
            telemetry.enqueued(count);
            return true;
        } catch (Exception e) {
            seq -= count;
            if (System.currentTimeMillis() - lastFailureLog > 5_000) {
                lastFailureLog = System.currentTimeMillis();
                LOG.log(Level.WARNING, "put of " + count + " jobs failed, trying again: " + e);
            }
            return false;
        }
    }

    private double currentRate(long now) {
        if (settings.rateControlFile() != null && (!rateRead || now - rateReadAt > RATE_FILE_EVERY_NANOS)) {
            rateRead = true;
            rateReadAt = now;
            try {
                rate = Double.parseDouble(Files.readString(settings.rateControlFile()).trim());
            } catch (IOException | NumberFormatException unreadable) {
                rate = settings.producerRate();
            }
        }
        return rate;
    }

    private void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            stopped = true;
            Thread.currentThread().interrupt();
        }
    }
}
