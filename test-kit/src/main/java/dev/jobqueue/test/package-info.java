/**
 * jobqueue's test kit, for an application's own Arquillian or integration tests. Add the jar to the test
 * deployment; then jobs run only when the test asks:
 *
 * <ul>
 *   <li>{@link dev.jobqueue.test.JobQueueTester#drain} runs a queue's due jobs now and says what became of each;</li>
 *   <li>{@link dev.jobqueue.test.TestClock} steps jobqueue's clock over delays and backoff, with no sleep;</li>
 *   <li>{@link dev.jobqueue.test.JobQueueTester#enqueued} lists what was put, with payloads and options.</li>
 * </ul>
 */
package dev.jobqueue.test;
