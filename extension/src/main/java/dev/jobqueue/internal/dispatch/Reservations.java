package dev.jobqueue.internal.dispatch;

import dev.jobqueue.internal.config.QueueOptions;
import dev.jobqueue.internal.store.ClaimedJob;
import dev.jobqueue.internal.time.LeaseClock;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * The runners of one queue's worker held for jobs being put on this node, and the start of those jobs once
 * their puts commit ({@link LocalStart}). Each held runner counts in flight until its job ends or it is given back.
 */
final class Reservations {

    private final QueueOptions options;
    private final PollLoop polls;
    private final ClaimBuffer buffer;
    private final RunningJobs running;
    private final Runners runners;
    private final Handback handback;
    private final Clock clock;
    private final LeaseClock leaseClock;
    /** After a put found the queue paused, puts write their jobs PENDING without trying to start them here. */
    private volatile Instant noneUntil = Instant.MIN;

    Reservations(QueueOptions options, PollLoop polls, ClaimBuffer buffer, RunningJobs running, Runners runners,
            Handback handback, Clock clock, LeaseClock leaseClock) {
        this.options = options;
        this.polls = polls;
        this.buffer = buffer;
        this.running = running;
        this.runners = runners;
        this.handback = handback;
        this.clock = clock;
        this.leaseClock = leaseClock;
    }

    /**
     * Holds a runner, as of {@code now}, if no job waits in the buffer and fewer than {@code concurrency} jobs
     * are in flight; none for a poll interval after a put found the queue paused.
     */
    Optional<LocalStart> reserve(Instant now) {
        if (now.isBefore(noneUntil) || !buffer.isEmpty() || !buffer.holdBelow(options.concurrency())) {
            return Optional.empty();
        }
        return Optional.of(new LocalStart(this, UUID.randomUUID().toString(), clock.instant(),
                leaseClock.now().plus(options.lease())));
    }

    /**
     * Gives back a runner held by {@link #reserve}. After a put found the queue paused, none is held for a poll
     * interval.
     */
    void cancel(boolean queuePaused) {
        if (queuePaused) {
            noneUntil = clock.instant().plus(options.pollInterval());
        }
        buffer.ended(1);
    }

    /**
     * Runs a job written RUNNING by a put that held a runner with {@link #reserve}. The job is released for a
     * prompt claim instead if the worker stopped meanwhile, or if the put's transaction used up half of the
     * lease, which the lease keeper might then not renew before it expires.
     */
    void start(ClaimedJob job, Instant leaseExpiresAt) {
        Instant renewBy = leaseExpiresAt.minus(options.lease().dividedBy(2));
        if (polls.isStopped() || leaseClock.now().isAfter(renewBy)) {
            buffer.ended(1);
            handback.releaseLater(job);
            return;
        }
        running.claimed(job, leaseExpiresAt);
        buffer.addHeld(job);
        runners.start();
    }
}
