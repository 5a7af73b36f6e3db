package dev.jobqueue.failure.rollout;

import dev.jobqueue.Consumer;
import dev.jobqueue.JobContext;
import dev.jobqueue.Occurrence;
import dev.jobqueue.OverlapPolicy;
import dev.jobqueue.Recurring;
import dev.jobqueue.failure.app.Effects;
import dev.jobqueue.failure.app.Work;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.SQLException;

/**
 * Version 2 of the report: the same consumer, now scheduled every second. Occurrences may overlap, so that each
 * one runs. Only the v2 WAR of {@code RollingUpgradeIT} holds it.
 */
@ApplicationScoped
public class ReportV2 {

    @Inject
    Effects effects;

    @Recurring(cron = "* * * * * *", overlap = OverlapPolicy.ALLOW)
    @Consumer(queue = "rollout")
    public void report(Occurrence occurrence, JobContext job) throws SQLException, InterruptedException {
        effects.apply(job, new Work((int) occurrence.scheduledFor().toEpochSecond(), 0));
    }
}
