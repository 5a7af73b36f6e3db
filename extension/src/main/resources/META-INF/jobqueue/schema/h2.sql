-- jobqueue schema for H2 2.x, the embedded default. Idempotent: safe to run again.
CREATE TABLE IF NOT EXISTS jobqueue_job (
    id               VARCHAR(36)  NOT NULL PRIMARY KEY,
    seq              BIGINT       GENERATED ALWAYS AS IDENTITY,
    queue            VARCHAR(100) NOT NULL,
    state            VARCHAR(16)  NOT NULL,
    payload          CHARACTER LARGE OBJECT NOT NULL,
    attempts         INTEGER      NOT NULL,
    priority         INTEGER      DEFAULT 0 NOT NULL,
    run_at           TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    created_at       TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    started_at       TIMESTAMP(6) WITH TIME ZONE,
    finished_at      TIMESTAMP(6) WITH TIME ZONE,
    lease_token      VARCHAR(36),
    lease_expires_at TIMESTAMP(6) WITH TIME ZONE,
    last_error       CHARACTER LARGE OBJECT,
    dedupe_key       VARCHAR(200),
    ordering_key     VARCHAR(200),
    group_name       VARCHAR(200),
    has_dependents   BOOLEAN      DEFAULT FALSE NOT NULL,
    dedupe_slot      VARCHAR(200) GENERATED ALWAYS AS (CASE WHEN state IN ('PENDING', 'RUNNING', 'WAITING') THEN dedupe_key END)
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
ALTER TABLE jobqueue_job ADD COLUMN IF NOT EXISTS progress_at TIMESTAMP(6) WITH TIME ZONE;
CREATE INDEX IF NOT EXISTS jobqueue_job_pending ON jobqueue_job (queue, state, priority DESC, run_at, seq);
CREATE UNIQUE INDEX IF NOT EXISTS jobqueue_job_dedupe ON jobqueue_job (queue, dedupe_slot);
CREATE INDEX IF NOT EXISTS jobqueue_job_ordering ON jobqueue_job (queue, ordering_key, seq);
CREATE INDEX IF NOT EXISTS jobqueue_job_group ON jobqueue_job (group_name, state);
CREATE INDEX IF NOT EXISTS jobqueue_job_lease ON jobqueue_job (lease_token);
CREATE INDEX IF NOT EXISTS jobqueue_job_lease_expiry ON jobqueue_job (state, lease_expires_at);
CREATE INDEX IF NOT EXISTS jobqueue_job_finished ON jobqueue_job (queue, state, finished_at);
CREATE INDEX IF NOT EXISTS jobqueue_job_seq ON jobqueue_job (seq);
CREATE INDEX IF NOT EXISTS jobqueue_job_due ON jobqueue_job (state, run_at, seq);
CREATE INDEX IF NOT EXISTS jobqueue_job_dedupe_key ON jobqueue_job (dedupe_key);
CREATE INDEX IF NOT EXISTS jobqueue_job_ordering_key ON jobqueue_job (ordering_key);
CREATE TABLE IF NOT EXISTS jobqueue_job_error (
    id        VARCHAR(36) NOT NULL PRIMARY KEY,
    job_id    VARCHAR(36) NOT NULL REFERENCES jobqueue_job (id) ON DELETE CASCADE,
    attempt   INTEGER     NOT NULL,
    failed_at TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    error     CHARACTER LARGE OBJECT NOT NULL
);
CREATE INDEX IF NOT EXISTS jobqueue_job_error_job ON jobqueue_job_error (job_id, attempt);
CREATE TABLE IF NOT EXISTS jobqueue_job_dependency (
    job_id     VARCHAR(36) NOT NULL REFERENCES jobqueue_job (id) ON DELETE CASCADE,
    depends_on VARCHAR(36) NOT NULL,
    PRIMARY KEY (job_id, depends_on)
);
CREATE INDEX IF NOT EXISTS jobqueue_job_dependency_on ON jobqueue_job_dependency (depends_on);
CREATE TABLE IF NOT EXISTS jobqueue_group (
    name       VARCHAR(200) NOT NULL PRIMARY KEY,
    created_at TIMESTAMP(6) WITH TIME ZONE NOT NULL
);
CREATE TABLE IF NOT EXISTS jobqueue_queue (
    name       VARCHAR(100) NOT NULL PRIMARY KEY,
    paused     BOOLEAN      NOT NULL,
    updated_at TIMESTAMP(6) WITH TIME ZONE NOT NULL
);
-- A queue's flow control, added by ALTER so that running this script again upgrades a table made by an earlier
-- version: paused_until, set by a consumer's QueueBackoffException; an admin's overrides of the configured limits
-- (rate_limit: '50/1s' or 'none'; max_running: 0 for none; NULL keeps the configuration); the starts of a
-- rate-limited queue in its last period (start_window, '<epoch millis>:<count>,...').
ALTER TABLE jobqueue_queue ADD COLUMN IF NOT EXISTS paused_until TIMESTAMP(6) WITH TIME ZONE;
ALTER TABLE jobqueue_queue ADD COLUMN IF NOT EXISTS rate_limit VARCHAR(64);
ALTER TABLE jobqueue_queue ADD COLUMN IF NOT EXISTS max_running INTEGER;
ALTER TABLE jobqueue_queue ADD COLUMN IF NOT EXISTS start_window VARCHAR(2000);

-- Recurring schedules. An occurrence's job is put in the transaction that moves next_fire_at past it.
CREATE TABLE IF NOT EXISTS jobqueue_schedule (
    name            VARCHAR(200) NOT NULL PRIMARY KEY,
    queue           VARCHAR(100) NOT NULL,
    cron            VARCHAR(200) NOT NULL,
    zone            VARCHAR(100) NOT NULL,
    payload         CLOB,
    missed          VARCHAR(16)  NOT NULL,
    missed_after_ms BIGINT       NOT NULL,
    catch_up_limit  INTEGER      NOT NULL,
    overlap         VARCHAR(16)  NOT NULL,
    declared        BOOLEAN      NOT NULL,
    enabled         BOOLEAN      NOT NULL,
    paused          BOOLEAN      NOT NULL,
    next_fire_at    TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    last_fire_at    TIMESTAMP(6) WITH TIME ZONE,
    last_job_id     VARCHAR(36),
    updated_at      TIMESTAMP(6) WITH TIME ZONE NOT NULL
);
CREATE INDEX IF NOT EXISTS jobqueue_schedule_due ON jobqueue_schedule (next_fire_at);

-- Set when a declared schedule was turned off because no running node declared it any more.
ALTER TABLE jobqueue_schedule ADD COLUMN IF NOT EXISTS declaration_gone BOOLEAN DEFAULT FALSE NOT NULL;
-- Each distinct @Recurring declaration of a schedule, by a hash of its definition: when a node first declared it,
-- and when a running node last did. Of those declared lately, the one first declared last is in force.
CREATE TABLE IF NOT EXISTS jobqueue_schedule_declaration (
    schedule    VARCHAR(200) NOT NULL,
    fingerprint VARCHAR(64)  NOT NULL,
    declared_at TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    seen_at     TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    PRIMARY KEY (schedule, fingerprint)
);
