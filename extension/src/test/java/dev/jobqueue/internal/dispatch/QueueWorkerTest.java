package dev.jobqueue.internal.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.internal.config.QueueLimits;
import dev.jobqueue.internal.config.QueueOptions;
import dev.jobqueue.internal.config.RateLimit;
import dev.jobqueue.internal.fixtures.FakeClaimStore;
import dev.jobqueue.internal.fixtures.FakeLeaseStore;
import dev.jobqueue.internal.fixtures.ManualExecutor;
import dev.jobqueue.internal.fixtures.SettableClock;
import dev.jobqueue.internal.fixtures.TestOptions;
import dev.jobqueue.internal.metrics.NoopJobMetrics;
import dev.jobqueue.internal.store.ClaimStart;
import dev.jobqueue.internal.store.ClaimedJob;
import dev.jobqueue.internal.store.DatabaseReachability;
import dev.jobqueue.internal.store.NewJob;
import dev.jobqueue.internal.time.LeaseClocks;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * One queue's worker on this node, with its scheduler, runners, clock and store played by the test: claim
 * sizing, the start-on-put reservation, leases that run out in the buffer, the retry hold, and what shutdown
 * hands back. No thread is started and nothing sleeps.
 */
class QueueWorkerTest {

    private static final Instant T0 = Instant.parse("2026-03-01T09:00:00Z");
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofSeconds(2);

    private final SettableClock clock = new SettableClock(T0);
    private final ManualExecutor scheduler = new ManualExecutor();
    private final ManualExecutor runners = new ManualExecutor();
    private final FakeClaimStore claims = new FakeClaimStore();
    private final FakeLeaseStore leases = new FakeLeaseStore();
    private final UnsettledLeases unsettled = new UnsettledLeases(leases, clock);
    private final RunningJobs running = new RunningJobs();
    private final ScriptedJobExecutor jobs = new ScriptedJobExecutor();
    private final DatabaseReachability database = new DatabaseReachability() {
        @Override
        public boolean reachable() {
            return claims.outage == null;
        }
    };

    private QueueWorker worker(int concurrency, int batchSize) {
        return worker(concurrency, batchSize, QueueLimits.none());
    }

    private QueueWorker worker(int concurrency, int batchSize, QueueLimits limits) {
        QueueOptions options = TestOptions.queue("reports").lease(LEASE).pollInterval(POLL).concurrency(concurrency)
                .batchSize(batchSize).limits(limits).build();
        return new QueueWorker(ReportsConsumer.method(), options, scheduler, runners, claims, leases, jobs, running, clock,
                LeaseClocks.following(clock), "node-1", database, new NoopJobMetrics(), unsettled,
                true);
    }

    private void addDue(int count) {
        int from = claims.due.size();
        IntStream.range(from, from + count).forEach(n -> claims.addDue("job-" + n, "reports", 0, T0));
    }

    /** Claims and runs a job whose attempt fails, and everything that follows on the scheduler. */
    private void failOnce(QueueWorker worker) {
        jobs.outcome = job -> Outcome.RETRY;
        addDue(1);
        poll(worker);
        runners.runQueued();
        scheduler.runQueued();
    }

    /** Polls and runs the runners until {@code count} jobs ran, or twenty rounds passed. */
    private void drain(QueueWorker worker, int count) {
        for (int round = 0; round < 20 && jobs.ran.size() < count; round++) {
            poll(worker);
            runners.runQueued();
        }
    }

    /** Runs the polls the worker asked for, but no runner. */
    private void poll(QueueWorker worker) {
        worker.wake();
        scheduler.runQueued();
    }

    @Test
    void with_jobs_per_transaction_a_runner_takes_up_to_that_many_waiting_jobs_into_one_transaction() {
        QueueOptions options = TestOptions.queue("reports").lease(LEASE).pollInterval(POLL).concurrency(2)
                .batchSize(10).jobsPerTransaction(3).build();
        QueueWorker worker = new QueueWorker(ReportsConsumer.method(), options, scheduler, runners, claims, leases,
                jobs, running, clock, LeaseClocks.following(clock), "node-1", database, new NoopJobMetrics(), unsettled,
                true);
        addDue(10);

        drain(worker, 10);

        assertEquals(IntStream.range(0, 10).mapToObj(n -> "job-" + n).toList(), jobs.ran.stream().sorted(
                java.util.Comparator.comparingInt(id -> Integer.parseInt(id.substring(4)))).toList(),
                "each job ran once");
        List<Integer> sizes = jobs.together.stream().map(List::size).toList();
        assertFalse(sizes.isEmpty(), "jobs shared a transaction");
        assertTrue(sizes.stream().allMatch(size -> size > 1 && size <= 3), "groups of the waiting jobs: " + sizes);
        assertTrue(running.isEmpty());
    }

    @Test
    void by_default_a_runner_takes_one_job_at_a_time() {
        QueueWorker worker = worker(2, 10);
        addDue(10);

        drain(worker, 10);

        assertEquals(10, jobs.ran.size());
        assertEquals(List.of(), jobs.together, "no job shares a transaction");
    }

    @Test
    void a_queue_with_cluster_wide_limits_claims_only_what_its_runners_start_and_starts_no_put_without_a_claim() {
        QueueWorker worker = worker(2, 50, new QueueLimits(null, 10));
        addDue(100);

        poll(worker);
        poll(worker);

        assertEquals(List.of(2), claims.claims.stream().map(FakeClaimStore.Claim::limit).toList(),
                "a job counts against the limits from its claim, so none waits in the buffer");
        assertEquals(1, claims.limitedClaims);
        assertTrue(worker.reserve().isEmpty(), "a put's local start would pass the limits by");
        runners.runQueued();
        scheduler.runQueued();
        assertEquals(List.of(2, 2), claims.claims.stream().map(FakeClaimStore.Claim::limit).limit(2).toList(),
                "the calls that ended freed their runners' room for the next claim");
    }

    @Test
    void under_a_rate_limit_alone_claims_take_jobs_ahead_of_the_runners_and_one_that_misses_its_time_goes_back() {
        QueueWorker worker = worker(2, 50, new QueueLimits(new RateLimit(1_000_000, Duration.ofSeconds(1)), 0));
        addDue(2);
        drain(worker, 2);
        assertEquals(List.of(2), claims.claims.stream().map(FakeClaimStore.Claim::limit).toList(),
                "until a job has run, a claim takes what the runners start at once");

        claims.limitedStartWithin = Duration.ofSeconds(10);
        addDue(20);
        poll(worker);
        assertEquals(50, claims.claims.get(1).limit(), "jobs have run: the claim takes a batch ahead of the runners");
        assertEquals(2, claims.lastAhead.atOnce());
        assertTrue(claims.lastAhead.within().compareTo(Duration.ZERO) > 0, "" + claims.lastAhead);
        runners.runQueued();
        assertEquals(22, jobs.ran.size(), "each started within its time");

        claims.limitedStartWithin = Duration.ofNanos(1);
        addDue(20);
        poll(worker);
        runners.runQueued();

        assertEquals(24, jobs.ran.size(), "the two the runners were free for started");
        assertEquals(IntStream.range(2, 20).mapToObj(n -> "job-" + n).toList(),
                leases.released.stream().map(ClaimedJob::id).toList(),
                "the others missed their time to start, and went back to the queue unstarted");
        assertTrue(running.isEmpty());
    }

    @Test
    void a_claim_the_rate_limit_held_back_polls_again_when_the_window_has_room() {
        QueueWorker worker = worker(4, 50, new QueueLimits(new RateLimit(1, Duration.ofSeconds(1)), 0));
        addDue(10);
        claims.limitedRoom = 1;
        claims.limitedRetryAt = T0.plusMillis(300);

        worker.wake();
        scheduler.runScheduled();

        assertEquals(1, running.snapshot().size());
        assertTrue(scheduler.delaysMillis.contains(300L), "a poll when the window has room: " + scheduler.delaysMillis);
    }

    @Test
    void a_backoff_hands_back_the_claimed_jobs_not_started_and_no_put_starts_here_until_it_ends() {
        QueueWorker worker = worker(1, 10);
        addDue(20);
        poll(worker);
        poll(worker);
        int claimed = running.snapshot().size();

        worker.backOff(T0.plusSeconds(3));

        assertEquals(claimed, leases.released.size(), "every claimed job went back, none had started");
        assertTrue(running.isEmpty());
        assertTrue(worker.reserve().isEmpty(), "no put starts here during the backoff");
    }

    @Test
    void an_admins_resume_ends_a_backoff_here_at_once_and_claims_leave_the_backoff_to_the_database() {
        QueueWorker worker = worker(2, 10);
        worker.backOff(T0.plusSeconds(30));
        assertTrue(worker.reserve().isEmpty(), "no put starts here during the backoff");
        addDue(1);
        poll(worker);
        assertEquals(1, claims.claims.size(), "the claim runs: the database's pause holds it back, and a resume on"
                + " another node clears that");
        runners.runQueued();

        worker.endBackoff();

        assertTrue(worker.reserve().isPresent(), "a put starts here at once again");
    }

    @Test
    void a_poller_whose_claim_waits_on_a_database_that_hangs_is_live_while_it_waits() {
        QueueWorker worker = worker(4, 50);
        addDue(1);
        List<Instant> seenWhileWaiting = new ArrayList<>();
        claims.duringClaim = () -> {
            clock.advance(Duration.ofSeconds(30));
            seenWhileWaiting.add(worker.lastPoll());
        };

        poll(worker);

        assertEquals(List.of(T0.plusSeconds(30)), seenWhileWaiting, "while its claim waits, the poller counts as polling now");
        assertEquals(T0.plusSeconds(30), worker.lastPoll(), "its round ended when the claim returned");
    }

    @Test
    void a_poll_claims_one_job_per_runner_until_it_knows_how_long_jobs_take_and_each_job_runs_once() {
        QueueWorker worker = worker(4, 50);
        addDue(10);

        poll(worker);
        assertEquals(4, claims.claims.get(0).limit(), "a first claim takes one job per runner");
        assertEquals(4, runners.tasks.size(), "one runner per claimed job");
        assertEquals(4, running.snapshot().size(), "claimed jobs hold leases the lease keeper renews");

        runners.runQueued();
        scheduler.runQueued();
        runners.runQueued();

        assertEquals(IntStream.range(0, 10).mapToObj(n -> "job-" + n).toList(), jobs.ran, "every job once, in order");
        assertTrue(running.isEmpty());
    }

    @Test
    void a_claim_takes_no_more_than_the_room_left_for_jobs_in_flight() {
        QueueWorker worker = worker(2, 50);
        addDue(100);

        poll(worker);
        poll(worker);
        poll(worker);

        // In flight at most concurrency + 2 claims: 2 + 2 * 2. The runners have not run, so nothing finished.
        assertEquals(List.of(2, 2, 2), claims.claims.stream().map(FakeClaimStore.Claim::limit).toList());
        poll(worker);
        assertEquals(3, claims.claims.size(), "a full buffer claims nothing more");
        assertEquals(6, running.snapshot().size());
    }

    @Test
    void claims_start_at_the_last_claims_place_and_after_a_job_of_an_ordering_key_ends_at_the_first_due_job() {
        QueueWorker worker = worker(1, 1);
        claims.due.add(new ClaimedJob("keyed", "reports", "{}", 0, T0, T0, null, null, "customer-7", 0, null));
        addDue(1);

        poll(worker);
        poll(worker);
        assertNull(claims.claims.get(0).start(), "the first claim reads from the first due job");
        assertEquals(new ClaimStart(0, T0.minus(ClaimCursor.LAG)), claims.claims.get(1).start());

        runners.runQueued();
        scheduler.runQueued();
        assertEquals("keyed", jobs.ran.get(0));
        assertNull(claims.claims.get(claims.claims.size() - 1).start(),
                "the next job of its key may be due before the last claim's place");
    }

    @Test
    void a_claim_writes_leases_that_end_one_lease_from_now() {
        QueueWorker worker = worker(1, 1);
        addDue(1);

        poll(worker);

        assertEquals(T0.plus(LEASE), claims.claims.get(0).leaseExpiresAt());
    }

    @Test
    void a_claimed_job_whose_lease_ran_out_while_it_waited_for_a_runner_is_handed_back_not_run() {
        QueueWorker worker = worker(1, 1);
        addDue(1);
        poll(worker);

        // The next renewal is a third of the lease away; a lease that ends before it must not start a job.
        clock.advance(LEASE.minus(LeaseRenewal.period(LEASE)));
        runners.runQueued();

        assertEquals(List.of(), jobs.ran);
        assertEquals(List.of("job-0"), leases.released.stream().map(ClaimedJob::id).toList());
        assertTrue(running.isEmpty());
    }

    @Test
    void a_renewed_lease_lets_a_job_that_waited_long_start() {
        QueueWorker worker = worker(1, 1);
        addDue(1);
        poll(worker);

        clock.advance(LEASE.minus(LeaseRenewal.period(LEASE)));
        running.renewed(running.snapshot().stream().map(entry -> dev.jobqueue.internal.store.LeasedJob.of(
                entry.job())).toList(), clock.instant().plus(LEASE));
        runners.runQueued();

        assertEquals(List.of("job-0"), jobs.ran);
        assertEquals(List.of(), leases.released);
    }

    @Test
    void after_a_failure_retries_wait_for_the_next_regular_poll_and_first_attempts_do_not() {
        QueueWorker worker = worker(1, 1);
        failOnce(worker);

        poll(worker);
        assertFalse(claims.claims.get(claims.claims.size() - 1).includeRetries(), "held within the poll interval");

        clock.advance(POLL);
        poll(worker);
        assertTrue(claims.claims.get(claims.claims.size() - 1).includeRetries());
    }

    @Test
    void a_retry_is_claimed_when_it_is_due_rather_than_at_the_first_poll_after_that() {
        QueueWorker worker = worker(1, 1);
        failOnce(worker);
        int claimsBefore = claims.claims.size();

        worker.wakeWhenRetryDue(T0.plusMillis(5_001));
        assertEquals(5_050L, scheduler.delaysMillis.get(scheduler.delaysMillis.size() - 1),
                "a timer at the due time, rounded up to 50 ms");
        worker.wakeWhenRetryDue(T0.plusMillis(5_020));
        assertEquals(1, scheduler.tasks.size(), "retries due within 50 ms share one timer");

        clock.advance(Duration.ofMillis(5_050));
        scheduler.runQueued();
        assertEquals(claimsBefore + 1, claims.claims.size());
        assertTrue(claims.claims.get(claims.claims.size() - 1).includeRetries());
    }

    @Test
    void a_retry_due_a_fraction_of_a_millisecond_after_a_tick_is_claimed_at_the_next_tick_not_before_it_is_due() {
        QueueWorker worker = worker(1, 1);
        failOnce(worker);

        // Due 300 microseconds after the 5,800 ms tick: a timer at 5,800 ms would claim before the retry is due.
        worker.wakeWhenRetryDue(T0.plusMillis(5_800).plusNanos(300_000));

        assertEquals(5_850L, scheduler.delaysMillis.get(scheduler.delaysMillis.size() - 1));
    }

    @Test
    void a_retry_due_before_the_next_regular_poll_is_claimed_when_due_although_regular_polls_hold_retries() {
        QueueWorker worker = worker(1, 1);
        failOnce(worker);

        worker.wakeWhenRetryDue(T0.plusMillis(200));
        assertEquals(200L, scheduler.delaysMillis.get(scheduler.delaysMillis.size() - 1));
        clock.advance(Duration.ofMillis(200));
        scheduler.runQueued();
        assertTrue(claims.claims.get(claims.claims.size() - 1).includeRetries(), "the timer's claim takes retries");

        poll(worker);
        assertFalse(claims.claims.get(claims.claims.size() - 1).includeRetries(), "a regular poll still holds them");
    }

    @Test
    void when_more_retries_are_due_than_the_timers_claim_takes_the_claims_after_it_take_them_too() {
        QueueWorker worker = worker(1, 1);
        failOnce(worker);
        jobs.outcome = job -> Outcome.DONE;
        claims.addDue("retry-a", "reports", 1, T0);
        claims.addDue("retry-b", "reports", 1, T0);
        claims.addDue("retry-c", "reports", 1, T0);

        // Regular polls still hold retries, so only the timer's claims, one job each here, can take them.
        worker.wakeWhenRetryDue(T0.plusMillis(200));
        clock.advance(Duration.ofMillis(200));
        scheduler.runQueued();
        runners.runQueued();
        scheduler.runQueued();
        runners.runQueued();
        scheduler.runQueued();
        runners.runQueued();

        assertEquals(List.of("job-0", "retry-a", "retry-b", "retry-c"), jobs.ran);
    }

    @Test
    void a_put_on_an_idle_queue_holds_a_runner_and_its_job_starts_without_a_claim() {
        QueueWorker worker = worker(2, 10);

        Optional<LocalStart> start = worker.reserve();
        assertTrue(start.isPresent());
        assertEquals(T0.plus(LEASE), start.get().leaseExpiresAt());

        start.get().run(newJob("put-1"));
        runners.runQueued();

        assertEquals(List.of("put-1"), jobs.ran);
        assertEquals(List.of(), claims.claims, "no claim transaction");
    }

    @Test
    void reservations_stop_at_the_queue_concurrency_and_a_rolled_back_put_gives_its_runner_back() {
        QueueWorker worker = worker(2, 10);

        LocalStart first = worker.reserve().orElseThrow();
        worker.reserve().orElseThrow();
        assertTrue(worker.reserve().isEmpty(), "both runners are held");

        first.cancel();
        first.cancel();
        assertTrue(worker.reserve().isPresent(), "the rolled-back put's runner is free again, once");
        assertTrue(worker.reserve().isEmpty());
    }

    @Test
    void a_queue_with_jobs_waiting_in_its_buffer_holds_no_runner_for_a_put() {
        QueueWorker worker = worker(4, 10);
        addDue(2);
        poll(worker);

        assertTrue(worker.reserve().isEmpty(), "the put's job goes PENDING, behind those already claimed");
    }

    @Test
    void a_put_that_found_the_queue_paused_stops_reservations_for_one_poll_interval() {
        QueueWorker worker = worker(2, 10);
        worker.reserve().orElseThrow().queuePaused();

        assertTrue(worker.reserve().isEmpty());
        clock.advance(POLL);
        assertTrue(worker.reserve().isPresent());
    }

    @Test
    void a_put_whose_transaction_used_half_the_lease_releases_its_job_for_a_claim_instead_of_running_it() {
        QueueWorker worker = worker(2, 10);
        LocalStart start = worker.reserve().orElseThrow();

        clock.advance(LEASE.dividedBy(2).plusMillis(1));
        start.run(newJob("put-1"));
        runners.runQueued();

        assertEquals(List.of(), jobs.ran);
        assertEquals(List.of("put-1"), leases.released.stream().map(ClaimedJob::id).toList());
        assertTrue(worker.reserve().isPresent(), "its runner is free again");
    }

    @Test
    void stopping_hands_the_buffered_jobs_to_shutdown_and_runs_none_of_them() {
        QueueWorker worker = worker(1, 10);
        addDue(3);
        poll(worker);

        worker.stop();
        List<ClaimedJob> buffered = worker.takeBuffered();
        runners.runQueued();

        assertEquals(List.of("job-0"), buffered.stream().map(ClaimedJob::id).toList());
        assertEquals(List.of(), jobs.ran);
        worker.wake();
        assertEquals(0, scheduler.runQueued(), "a stopped worker does not poll");
    }

    @Test
    void a_claim_during_a_database_outage_claims_nothing_and_asks_the_database_before_trying_again() {
        QueueWorker worker = worker(1, 1);
        addDue(1);
        claims.outage = new IllegalStateException("connection refused");

        poll(worker);
        poll(worker);
        assertEquals(1, claims.claims.size(), "while the database does not answer, the claim is not retried");

        claims.outage = null;
        poll(worker);
        runners.runQueued();
        assertEquals(List.of("job-0"), jobs.ran);
    }

    @Test
    void a_claim_that_lost_its_connection_may_have_committed_and_its_lease_token_is_left_to_be_handed_back() {
        QueueWorker worker = worker(1, 1);
        addDue(1);
        claims.outage = new IllegalStateException(new SQLException("terminating connection due to administrator"
                + " command", "57P01"));

        poll(worker);
        unsettled.settle();

        assertEquals(List.of(claims.claims.get(0).leaseToken()), leases.releasedClaims);
    }

    @Test
    void a_claim_that_failed_on_a_live_connection_rolled_back_and_leaves_nothing_to_hand_back() {
        QueueWorker worker = worker(1, 1);
        addDue(1);
        claims.outage = new IllegalStateException(new SQLException("canceling statement due to statement timeout",
                "57014"));

        poll(worker);
        unsettled.settle();

        assertEquals(List.of(), leases.releasedClaims);
    }

    @Test
    void non_transactional_jobs_are_marked_done_in_one_batch() {
        QueueWorker worker = worker(4, 10);
        addDue(4);
        jobs.outcome = job -> Outcome.SUCCEEDED;
        poll(worker);
        runners.runQueued();

        assertEquals(List.of(), jobs.batchedDone, "the DONE waits a few milliseconds for others");
        assertEquals(4, running.snapshot().size(), "their leases are held until DONE is written");
        scheduler.runScheduled();

        assertEquals(List.of(List.of("job-0", "job-1", "job-2", "job-3")), jobs.batchedDone);
        assertTrue(running.isEmpty());
    }

    private static NewJob newJob(String id) {
        return new NewJob(id, "reports", "{}", 0, T0, T0, null, null, null, Set.of(), null);
    }
}
