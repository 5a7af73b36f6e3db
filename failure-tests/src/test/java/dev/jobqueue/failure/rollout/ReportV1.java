package dev.jobqueue.failure.rollout;

import dev.jobqueue.Consumer;
import dev.jobqueue.JobContext;
import dev.jobqueue.Occurrence;
import dev.jobqueue.failure.app.Effects;
import dev.jobqueue.failure.app.Work;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.SQLException;

/**
 * Version 1 of an application's report: it consumes queue rollout, and schedules nothing. Only the v1 WAR of
 * {@code RollingUpgradeIT} holds it; each occurrence writes one effect whose {@code n} is its time in epoch seconds.
 */
@ApplicationScoped
public class ReportV1 {

    @Inject
    Effects effects;

    @Consumer(queue = "rollout")
    public void report(Occurrence occurrence, JobContext job) throws SQLException, InterruptedException {
        effects.apply(job, new Work((int) occurrence.scheduledFor().toEpochSecond(), 0));
    }
}
