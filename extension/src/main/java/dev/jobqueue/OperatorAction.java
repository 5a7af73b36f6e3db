package dev.jobqueue;

import java.time.Instant;

/**
 * A CDI event fired after an operator changed something through the admin REST API or the dashboard: retried,
 * deleted or purged jobs, paused or resumed a queue, or triggered, paused, resumed or deleted a schedule. It is
 * fired once the change has committed, on the node that served the request, and the same action is logged as one
 * line (JQ087). Observe it to keep an audit trail of your own. An observer that throws does not undo the change.
 *
 * @param user   the name of the authenticated user who asked
 * @param action what was done: {@code retry}, {@code delete}, {@code retry-selected}, {@code delete-selected},
 *               {@code retry-matching}, {@code delete-matching}, {@code retry-failed}, {@code purge-failed},
 *               {@code pause}, {@code resume}, {@code trigger-schedule}, {@code pause-schedule},
 *               {@code resume-schedule} or {@code delete-schedule}
 * @param target what it was done to, such as {@code job 5b0c...}, {@code queue email},
 *               {@code FAILED jobs where queue=email} or {@code schedule nightly-report}
 * @param count  how many jobs, queues or schedules it changed; 0 when it changed nothing
 * @param at     when it was done
 */
public record OperatorAction(String user, String action, String target, int count, Instant at) {
}
