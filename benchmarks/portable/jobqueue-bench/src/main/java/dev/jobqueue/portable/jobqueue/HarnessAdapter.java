package dev.jobqueue.portable.jobqueue;

import dev.jobqueue.JobOptions;
import dev.jobqueue.JobQueue;
import dev.jobqueue.portable.kit.AdapterProcess;
import dev.jobqueue.portable.kit.AdapterSettings;
import dev.jobqueue.portable.kit.BenchJob;
import dev.jobqueue.portable.kit.Telemetry;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.BeforeDestroyed;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Startup;
import jakarta.inject.Inject;
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * The adapter inside the server: at start-up it prints the descriptor and starts the producer, the depth poller
 * and the telemetry on managed threads. The JSONL goes to the process's own stdout, not through the server's
 * {@code System.out}, so that no log format touches it.
 */
@ApplicationScoped
public class HarnessAdapter {

    private static final String DEPTH = "SELECT count(*) FROM jobqueue_job WHERE queue = ? AND state = 'PENDING'";

    @Inject
    JobQueue jobs;

    @Resource(lookup = "java:comp/DefaultManagedThreadFactory")
    ManagedThreadFactory threads;

    @Resource(lookup = "java:comp/DefaultDataSource")
    DataSource dataSource;

    private volatile AdapterProcess process;
    private volatile Telemetry telemetry;

    void start(@Observes Startup startup) {
        AdapterSettings settings = AdapterSettings.fromEnvironment(System.getenv("BENCH_SYSTEM"));
        Variant variant = Variant.of(settings.system());
        PrintStream stdout = new PrintStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out)),
                false, StandardCharsets.UTF_8);
        AdapterProcess started = new AdapterProcess(settings, stdout,
                batch -> jobs.putAll(variant.queue(), batch, JobOptions.defaults()),
                () -> depth(variant.queue()), threads);
        telemetry = started.telemetry();
        process = started;
        started.start(List.of("public.jobqueue_job"), version(), "postgresql.sql");
    }

    /** Stops the producer before jobqueue's runners stop, so that jobs put at the end are not left behind. */
    void stop(@Observes @BeforeDestroyed(ApplicationScoped.class) Object stopping) {
        AdapterProcess running = process;
        if (running != null) {
            running.stop();
        }
    }

    /** A job started: its claim latency, then the contract's synthetic work. */
    void work(BenchJob job) {
        Telemetry current = telemetry;
        if (current != null) {
            current.claimed(job.enqueuedAtMicros());
        }
        int millis = process == null ? 0 : process.settings().jobWorkMillis();
        if (millis > 0) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** A job's completion is durable. */
    void completed() {
        Telemetry current = telemetry;
        if (current != null) {
            current.completed(1);
        }
    }

    private long depth(String queue) throws Exception {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement count = connection.prepareStatement(DEPTH)) {
            count.setString(1, queue);
            try (ResultSet rows = count.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    private static String version() {
        return "jobqueue " + Objects.requireNonNullElse(System.getenv("JOBQUEUE_BENCH_VERSION"),
                Objects.requireNonNullElse(JobQueue.class.getPackage().getImplementationVersion(), "unknown"));
    }
}
