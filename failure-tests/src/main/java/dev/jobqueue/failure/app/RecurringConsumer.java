package dev.jobqueue.failure.app;

import dev.jobqueue.Consumer;
import dev.jobqueue.JobContext;
import dev.jobqueue.Occurrence;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.SQLException;

/**
 * The consumer of the schedules the test makes through {@link ChaosResource}: each occurrence writes one effect
 * whose {@code n} is the occurrence's time in epoch seconds.
 */
@ApplicationScoped
public class RecurringConsumer {

    @Inject
    Effects effects;

    @Consumer(queue = "recurring")
    public void occurrence(Occurrence occurrence, JobContext job) throws SQLException, InterruptedException {
        effects.apply(job, new Work((int) occurrence.scheduledFor().toEpochSecond(), 0));
    }
}
