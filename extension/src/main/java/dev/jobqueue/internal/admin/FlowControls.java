package dev.jobqueue.internal.admin;

import dev.jobqueue.JobAdmin.FlowControl;
import dev.jobqueue.internal.config.QueueLimits;
import dev.jobqueue.internal.store.QueueControlRow;
import dev.jobqueue.internal.store.StartWindow;
import java.time.Instant;

/** A queue's {@link FlowControl} for the admin API, from its configured limits and its row. */
final class FlowControls {

    private FlowControls() {
    }

    /**
     * @param configured the limits this node's configuration sets
     * @param control    the queue's row, or null if it has none
     * @param now        the database's time, as limits are measured
     */
    static FlowControl of(QueueLimits configured, QueueControlRow control, Instant now) {
        if (control == null) {
            return new FlowControl(rateText(configured), 0, configured.maxRunning(), null, false);
        }
        // A bad override is logged and cleared by the next claim (JQ093); until then the configuration is in force.
        Integer maxRunning = control.maxRunningOverride() != null && control.maxRunningOverride() < 0 ? null
                : control.maxRunningOverride();
        QueueLimits limits;
        try {
            limits = configured.overriddenBy(control.rateOverride(), maxRunning);
        } catch (IllegalArgumentException e) {
            limits = configured.overriddenBy(null, maxRunning);
        }
        int starts = 0;
        if (limits.rate() != null) {
            try {
                starts = StartWindow.parse(control.startWindow()).startsInPeriod(limits.rate(), now);
            } catch (IllegalArgumentException e) {
                // The next claim logs and rewrites it (JQ094).
            }
        }
        Instant backoffUntil = control.pausedUntil() != null && control.pausedUntil().isAfter(now)
                ? control.pausedUntil() : null;
        boolean overridden = control.rateOverride() != null || control.maxRunningOverride() != null;
        return new FlowControl(rateText(limits), starts, limits.maxRunning(), backoffUntil, overridden);
    }

    private static String rateText(QueueLimits limits) {
        return limits.rate() == null ? null : limits.rate().toString();
    }
}
