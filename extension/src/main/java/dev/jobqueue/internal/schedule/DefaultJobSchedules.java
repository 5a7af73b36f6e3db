package dev.jobqueue.internal.schedule;

import dev.jobqueue.internal.cron.CronSchedule;
import dev.jobqueue.internal.cron.SchedulePolicy;
import dev.jobqueue.internal.cron.ScheduleDefinition;
import dev.jobqueue.InvalidPayloadException;
import dev.jobqueue.JobSchedules;
import dev.jobqueue.Schedule;
import dev.jobqueue.ScheduleInfo;
import dev.jobqueue.internal.QueueNames;
import dev.jobqueue.internal.payload.PayloadCodec;
import dev.jobqueue.internal.store.ScheduleRow;
import dev.jobqueue.internal.store.ScheduleStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.util.Optional;

/** The {@link JobSchedules} bean: schedules made in code, stored in the caller's transaction. */
@ApplicationScoped
public class DefaultJobSchedules implements JobSchedules {

    @Inject
    ScheduleDeclarations declarations;

    @Inject
    ScheduleStore store;

    @Inject
    PayloadCodec codec;

    @Inject
    ScheduleRunner runner;

    @Override
    @Transactional(dontRollbackOn = {IllegalArgumentException.class, InvalidPayloadException.class})
    public void save(Schedule schedule) {
        ScheduleDefinition definition = definition(schedule);
        if (store.find(schedule.name()).filter(ScheduleRow::declared).isPresent()) {
            throw new IllegalArgumentException("jobqueue: schedule " + schedule.name() + " is declared with"
                    + " @Recurring; change it there, or with configuration keys jobqueue.schedule." + schedule.name()
                    + ".*");
        }
        declarations.save(definition);
    }

    @Override
    @Transactional
    public boolean delete(String name) {
        return store.delete(name);
    }

    @Override
    public Optional<ScheduleInfo> find(String name) {
        return store.find(name).map(StoredSchedule::info);
    }

    private ScheduleDefinition definition(Schedule schedule) {
        String name = schedule.name();
        if (!QueueNames.isValid(name)) {
            throw new IllegalArgumentException("jobqueue: schedule name '" + name + "' is not valid: use up to "
                    + QueueNames.MAX_LENGTH + " of a-z, 0-9, '.', '_' and '-', starting with a letter or digit");
        }
        if (!runner.fires(schedule.queue())) {
            throw new IllegalArgumentException("jobqueue: schedule " + name + ": no @Consumer in this application"
                    + " consumes queue '" + schedule.queue() + "'");
        }
        CronSchedule cron;
        try {
            cron = CronSchedule.parse(schedule.cronExpression(), schedule.zone().getId());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("jobqueue: schedule " + name + ": " + e.getMessage(), e);
        }
        String payload = null;
        if (schedule.payload().isPresent()) {
            try {
                payload = codec.toJson(schedule.payload().get());
            } catch (RuntimeException e) {
                throw new InvalidPayloadException("jobqueue: schedule " + name + ": its payload cannot be serialised"
                        + " with JSON-B: " + e.getMessage(), e);
            }
        }
        SchedulePolicy policy = new SchedulePolicy(schedule.missed(), schedule.missedAfter(), schedule.catchUpLimit(),
                schedule.overlap());
        return new ScheduleDefinition(name, schedule.queue(), cron, policy, payload, false, true);
    }
}
