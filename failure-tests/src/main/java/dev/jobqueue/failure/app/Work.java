package dev.jobqueue.failure.app;

/**
 * A job's payload: which unit of work it is and how long its consumer takes.
 *
 * @param n      the unit's number, unique within a scenario
 * @param millis how long the consumer works before it writes its effect
 */
public record Work(int n, int millis) {
}
