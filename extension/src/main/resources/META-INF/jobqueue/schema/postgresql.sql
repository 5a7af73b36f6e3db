-- jobqueue schema for PostgreSQL. Idempotent: safe to run again, and ready for Flyway or Liquibase.
CREATE TABLE IF NOT EXISTS jobqueue_job (
    id               VARCHAR(36)  NOT NULL PRIMARY KEY,
    -- Enqueue order, for FIFO within a priority and within an ordering key.
    seq              BIGINT       GENERATED ALWAYS AS IDENTITY,
    queue            VARCHAR(100) NOT NULL,
    state            VARCHAR(16)  NOT NULL,
    payload          TEXT         NOT NULL,
    attempts         INTEGER      NOT NULL,
    priority         INTEGER      NOT NULL DEFAULT 0,
    run_at           TIMESTAMP WITH TIME ZONE NOT NULL,
    created_at       TIMESTAMP WITH TIME ZONE NOT NULL,
    started_at       TIMESTAMP WITH TIME ZONE,
    finished_at      TIMESTAMP WITH TIME ZONE,
    lease_token      VARCHAR(36),
    lease_expires_at TIMESTAMP WITH TIME ZONE,
    last_error       TEXT,
    dedupe_key       VARCHAR(200),
    ordering_key     VARCHAR(200),
    group_name       VARCHAR(200),
    -- Set when another job waits for this one, so that finishing it releases or fails that job.
    has_dependents   BOOLEAN      NOT NULL DEFAULT FALSE
);
-- The node that claimed the job last: while it is RUNNING, the lease holder. Added by ALTER so that running
-- this script again upgrades a table made by an earlier version.
ALTER TABLE jobqueue_job ADD COLUMN IF NOT EXISTS claimed_by VARCHAR(200);
-- The W3C trace context (traceparent, tracestate) of the span that put the job, when the application traces with
-- OpenTelemetry: the consumer's span follows it.
ALTER TABLE jobqueue_job ADD COLUMN IF NOT EXISTS trace_parent VARCHAR(55);
ALTER TABLE jobqueue_job ADD COLUMN IF NOT EXISTS trace_state VARCHAR(512);
-- How far a job's consumer said it had come (JobContext.progress), in the attempt progress_attempt: an attempt
-- that has not reported shows none. Written outside the job's transaction, at most once a second.
ALTER TABLE jobqueue_job ADD COLUMN IF NOT EXISTS progress DOUBLE PRECISION;
ALTER TABLE jobqueue_job ADD COLUMN IF NOT EXISTS progress_note VARCHAR(200);
ALTER TABLE jobqueue_job ADD COLUMN IF NOT EXISTS progress_attempt INTEGER;
ALTER TABLE jobqueue_job ADD COLUMN IF NOT EXISTS progress_at TIMESTAMP WITH TIME ZONE;
-- Claiming reads only due PENDING rows of one queue, in claim order, however many DONE and FAILED rows there are.
CREATE INDEX IF NOT EXISTS jobqueue_job_pending ON jobqueue_job (queue, priority DESC, run_at, seq) WHERE state = 'PENDING';
-- A dedupe key is unique among the unfinished jobs of a queue.
CREATE UNIQUE INDEX IF NOT EXISTS jobqueue_job_dedupe ON jobqueue_job (queue, dedupe_key)
    WHERE dedupe_key IS NOT NULL AND state IN ('PENDING', 'RUNNING', 'WAITING');
-- The unfinished jobs of an ordering key, oldest first: only the oldest may run.
CREATE INDEX IF NOT EXISTS jobqueue_job_ordering ON jobqueue_job (queue, ordering_key, seq)
    WHERE ordering_key IS NOT NULL AND state IN ('PENDING', 'RUNNING', 'WAITING');
CREATE INDEX IF NOT EXISTS jobqueue_job_group ON jobqueue_job (group_name, state) WHERE group_name IS NOT NULL;
-- Counting WAITING jobs by queue (the other states' counts read the partial indexes of their own state).
CREATE INDEX IF NOT EXISTS jobqueue_job_waiting ON jobqueue_job (queue) WHERE state = 'WAITING';
-- Lease renewal and rescue touch only RUNNING rows.
CREATE INDEX IF NOT EXISTS jobqueue_job_lease ON jobqueue_job (lease_token) WHERE state = 'RUNNING';
-- The lease keeper's scan for expired leases. Its predicate names lease_expires_at too, so that only a statement
-- that bounds lease_expires_at can read it: when the statistics say almost no job is RUNNING, PostgreSQL would
-- otherwise read this index whole to finish one job found by its id and lease token, and under a snapshot held
-- open elsewhere it holds every RUNNING row version since. It replaces jobqueue_job_lease_expiry.
DROP INDEX IF EXISTS jobqueue_job_lease_expiry;
CREATE INDEX IF NOT EXISTS jobqueue_job_running_expiry ON jobqueue_job (lease_expires_at)
    WHERE state = 'RUNNING' AND lease_expires_at IS NOT NULL;
-- Admin listings of dead letters, and retention's deletes of old DONE jobs.
CREATE INDEX IF NOT EXISTS jobqueue_job_failed ON jobqueue_job (queue, finished_at) WHERE state = 'FAILED';
CREATE INDEX IF NOT EXISTS jobqueue_job_done ON jobqueue_job (queue, finished_at) WHERE state = 'DONE';
-- Counting and listing the jobs operators cancelled.
CREATE INDEX IF NOT EXISTS jobqueue_job_cancelled ON jobqueue_job (queue, finished_at) WHERE state = 'CANCELLED';
-- The dashboard's listings page by keyset: put order, the PENDING jobs due soonest, and a search by dedupe key or
-- ordering key in any state.
CREATE INDEX IF NOT EXISTS jobqueue_job_seq ON jobqueue_job (seq);
CREATE INDEX IF NOT EXISTS jobqueue_job_due ON jobqueue_job (run_at, seq) WHERE state = 'PENDING';
CREATE INDEX IF NOT EXISTS jobqueue_job_dedupe_key ON jobqueue_job (dedupe_key) WHERE dedupe_key IS NOT NULL;
CREATE INDEX IF NOT EXISTS jobqueue_job_ordering_key ON jobqueue_job (ordering_key) WHERE ordering_key IS NOT NULL;

-- Every failed attempt's error, deleted with its job.
CREATE TABLE IF NOT EXISTS jobqueue_job_error (
    id        VARCHAR(36) NOT NULL PRIMARY KEY,
    job_id    VARCHAR(36) NOT NULL REFERENCES jobqueue_job (id) ON DELETE CASCADE,
    attempt   INTEGER     NOT NULL,
    failed_at TIMESTAMP WITH TIME ZONE NOT NULL,
    error     TEXT        NOT NULL
);
CREATE INDEX IF NOT EXISTS jobqueue_job_error_job ON jobqueue_job_error (job_id, attempt);

-- Which jobs a WAITING job waits for. A job it waits for that no longer exists counts as DONE.
CREATE TABLE IF NOT EXISTS jobqueue_job_dependency (
    job_id     VARCHAR(36) NOT NULL REFERENCES jobqueue_job (id) ON DELETE CASCADE,
    depends_on VARCHAR(36) NOT NULL,
    PRIMARY KEY (job_id, depends_on)
);
CREATE INDEX IF NOT EXISTS jobqueue_job_dependency_on ON jobqueue_job_dependency (depends_on);

-- One row per job group; finishing a group's jobs locks it, so exactly one finisher sees the group end.
CREATE TABLE IF NOT EXISTS jobqueue_group (
    name       VARCHAR(200) NOT NULL PRIMARY KEY,
    created_at TIMESTAMP WITH TIME ZONE NOT NULL
);

-- Cluster-wide queue switches: a paused queue is not claimed by any node.
CREATE TABLE IF NOT EXISTS jobqueue_queue (
    name       VARCHAR(100) NOT NULL PRIMARY KEY,
    paused     BOOLEAN      NOT NULL,
    updated_at TIMESTAMP WITH TIME ZONE NOT NULL
);
-- A queue's flow control, added by ALTER so that running this script again upgrades a table made by an earlier
-- version: paused_until, set by a consumer's QueueBackoffException; an admin's overrides of the configured limits
-- (rate_limit: '50/1s' or 'none'; max_running: 0 for none; NULL keeps the configuration); the starts of a
-- rate-limited queue in its last period (start_window, '<epoch millis>:<count>,...').
ALTER TABLE jobqueue_queue ADD COLUMN IF NOT EXISTS paused_until TIMESTAMP WITH TIME ZONE;
ALTER TABLE jobqueue_queue ADD COLUMN IF NOT EXISTS rate_limit VARCHAR(64);
ALTER TABLE jobqueue_queue ADD COLUMN IF NOT EXISTS max_running INTEGER;
ALTER TABLE jobqueue_queue ADD COLUMN IF NOT EXISTS start_window VARCHAR(2000);

-- Recurring schedules. An occurrence's job is put in the transaction that moves next_fire_at past it, so each
-- occurrence gets exactly one job whichever node fires it. declared: made by @Recurring (else by JobSchedules).
CREATE TABLE IF NOT EXISTS jobqueue_schedule (
    name            VARCHAR(200) NOT NULL PRIMARY KEY,
    queue           VARCHAR(100) NOT NULL,
    cron            VARCHAR(200) NOT NULL,
    zone            VARCHAR(100) NOT NULL,
    payload         TEXT,
    missed          VARCHAR(16)  NOT NULL,
    missed_after_ms BIGINT       NOT NULL,
    catch_up_limit  INTEGER      NOT NULL,
    overlap         VARCHAR(16)  NOT NULL,
    declared        BOOLEAN      NOT NULL,
    enabled         BOOLEAN      NOT NULL,
    paused          BOOLEAN      NOT NULL,
    next_fire_at    TIMESTAMP WITH TIME ZONE NOT NULL,
    last_fire_at    TIMESTAMP WITH TIME ZONE,
    last_job_id     VARCHAR(36),
    updated_at      TIMESTAMP WITH TIME ZONE NOT NULL
);
CREATE INDEX IF NOT EXISTS jobqueue_schedule_due ON jobqueue_schedule (next_fire_at) WHERE enabled AND NOT paused;

-- Set when a declared schedule was turned off because no running node declared it any more. Added by ALTER so that
-- running this script again upgrades a table made by an earlier version.
ALTER TABLE jobqueue_schedule ADD COLUMN IF NOT EXISTS declaration_gone BOOLEAN NOT NULL DEFAULT FALSE;

-- Each distinct @Recurring declaration of a schedule, by a hash of its definition: when a node first declared it,
-- and when a running node last did. Of those declared lately, the one first declared last is in force, so an
-- older version's node restarting in a rolling upgrade leaves a newer version's schedule as it is.
CREATE TABLE IF NOT EXISTS jobqueue_schedule_declaration (
    schedule    VARCHAR(200) NOT NULL,
    fingerprint VARCHAR(64)  NOT NULL,
    declared_at TIMESTAMP WITH TIME ZONE NOT NULL,
    seen_at     TIMESTAMP WITH TIME ZONE NOT NULL,
    PRIMARY KEY (schedule, fingerprint)
);
