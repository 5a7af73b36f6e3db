package dev.jobqueue.internal.admin;

import dev.jobqueue.OperatorAction;
import dev.jobqueue.internal.Messages;
import dev.jobqueue.internal.time.JobQueueClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Records each change an operator makes through the admin API: one log line naming the user, the action, what it
 * touched and how many, and an {@link OperatorAction} event. An observer that throws is logged, not passed on:
 * the change has committed, and the operator must be told so.
 */
@ApplicationScoped
public class ActionLog {

    private static final Logger LOG = Logger.getLogger(ActionLog.class.getName());

    @Inject
    Event<OperatorAction> events;

    @Inject
    @JobQueueClock
    Clock clock;

    /** Logs the action and fires its event. */
    public void record(String user, String action, String target, int count) {
        LOG.info(Messages.operatorAction(user, action, target, count));
        try {
            events.fire(new OperatorAction(user, action, target, count, clock.instant()));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "jobqueue: an observer of OperatorAction failed: " + e, e);
        }
    }
}
