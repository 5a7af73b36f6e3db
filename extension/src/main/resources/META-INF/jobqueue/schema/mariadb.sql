-- jobqueue schema for MariaDB 10.6+. Idempotent: safe to run again, and ready for Flyway or Liquibase.
-- jobqueue needs the READ COMMITTED isolation level on its datasource, as liberty-config's datasource sets;
-- it checks at start-up.
-- Queue names, dedupe keys, ordering keys and group names compare byte for byte (utf8mb4_nopad_bin): the default
-- collation would make 'Ab1', 'ab1', 'áb1' and 'ab1 ' one key. A table created with the default collation is
-- converted by upgrade/mariadb-exact-keys.sql.
CREATE TABLE IF NOT EXISTS jobqueue_job (
    id               VARCHAR(36)  NOT NULL PRIMARY KEY,
    -- Enqueue order, for FIFO within a priority and within an ordering key.
    seq              BIGINT       NOT NULL AUTO_INCREMENT UNIQUE,
    queue            VARCHAR(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
    state            VARCHAR(16)  NOT NULL,
    payload          LONGTEXT     NOT NULL,
    attempts         INT          NOT NULL,
    priority         INT          NOT NULL DEFAULT 0,
    run_at           DATETIME(6)  NOT NULL,
    created_at       DATETIME(6)  NOT NULL,
    started_at       DATETIME(6),
    finished_at      DATETIME(6),
    lease_token      VARCHAR(36),
    lease_expires_at DATETIME(6),
    last_error       TEXT,
    dedupe_key       VARCHAR(200) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin,
    ordering_key     VARCHAR(200) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin,
    group_name       VARCHAR(200) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin,
    -- Set when another job waits for this one, so that finishing it releases or fails that job.
    has_dependents   BOOLEAN      NOT NULL DEFAULT FALSE,
    -- The dedupe key while the job is unfinished, NULL after: the unique index below allows many NULLs.
    dedupe_slot      VARCHAR(200) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin AS (CASE WHEN state IN ('PENDING', 'RUNNING', 'WAITING') THEN dedupe_key END) PERSISTENT,
    UNIQUE KEY jobqueue_job_dedupe (queue, dedupe_slot)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
-- The node that claimed the job last: while it is RUNNING, the lease holder. Added by ALTER so that running
-- this script again upgrades a table made by an earlier version.
ALTER TABLE jobqueue_job ADD COLUMN IF NOT EXISTS claimed_by VARCHAR(200) COLLATE utf8mb4_nopad_bin;
-- The W3C trace context (traceparent, tracestate) of the span that put the job, when the application traces with
-- OpenTelemetry: the consumer's span follows it.
ALTER TABLE jobqueue_job ADD COLUMN IF NOT EXISTS trace_parent VARCHAR(55);
ALTER TABLE jobqueue_job ADD COLUMN IF NOT EXISTS trace_state VARCHAR(512);
-- How far a job's consumer said it had come (JobContext.progress), in the attempt progress_attempt: an attempt
-- that has not reported shows none. Written outside the job's transaction, at most once a second.
ALTER TABLE jobqueue_job ADD COLUMN IF NOT EXISTS progress DOUBLE;
ALTER TABLE jobqueue_job ADD COLUMN IF NOT EXISTS progress_note VARCHAR(200);
ALTER TABLE jobqueue_job ADD COLUMN IF NOT EXISTS progress_attempt INT;
ALTER TABLE jobqueue_job ADD COLUMN IF NOT EXISTS progress_at DATETIME(6);
-- Claiming reads due PENDING rows of one queue in claim order. The state comes first, so that counting one
-- state's jobs by queue reads only that state's entries (earlier versions had queue first, under another name).
-- The new index is built before the old one goes, so that claims never run without one.
CREATE INDEX IF NOT EXISTS jobqueue_job_state ON jobqueue_job (state, queue, priority DESC, run_at, seq);
DROP INDEX IF EXISTS jobqueue_job_pending ON jobqueue_job;
-- The jobs of an ordering key, oldest first: only the oldest unfinished one may run.
CREATE INDEX IF NOT EXISTS jobqueue_job_ordering ON jobqueue_job (queue, ordering_key, seq);
CREATE INDEX IF NOT EXISTS jobqueue_job_group ON jobqueue_job (group_name, state);
-- Lease renewal and rescue.
CREATE INDEX IF NOT EXISTS jobqueue_job_lease ON jobqueue_job (lease_token);
CREATE INDEX IF NOT EXISTS jobqueue_job_lease_expiry ON jobqueue_job (state, lease_expires_at);
-- Admin listings of dead letters, retention's deletes of old DONE jobs, and counts of DONE and FAILED jobs;
-- state first, as above.
CREATE INDEX IF NOT EXISTS jobqueue_job_state_finished ON jobqueue_job (state, queue, finished_at);
DROP INDEX IF EXISTS jobqueue_job_finished ON jobqueue_job;
-- The dashboard's listings page by keyset: put order (the unique key on seq), a state's jobs due soonest, and a
-- search by dedupe key or ordering key in any state.
CREATE INDEX IF NOT EXISTS jobqueue_job_due ON jobqueue_job (state, run_at, seq);
CREATE INDEX IF NOT EXISTS jobqueue_job_dedupe_key ON jobqueue_job (dedupe_key);
CREATE INDEX IF NOT EXISTS jobqueue_job_ordering_key ON jobqueue_job (ordering_key);

-- Every failed attempt's error, deleted with its job.
CREATE TABLE IF NOT EXISTS jobqueue_job_error (
    id        VARCHAR(36) NOT NULL PRIMARY KEY,
    job_id    VARCHAR(36) NOT NULL,
    attempt   INT         NOT NULL,
    failed_at DATETIME(6) NOT NULL,
    error     TEXT        NOT NULL,
    INDEX jobqueue_job_error_job (job_id, attempt),
    CONSTRAINT jobqueue_job_error_job_fk FOREIGN KEY (job_id) REFERENCES jobqueue_job (id) ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- Which jobs a WAITING job waits for. A job it waits for that no longer exists counts as DONE.
CREATE TABLE IF NOT EXISTS jobqueue_job_dependency (
    job_id     VARCHAR(36) NOT NULL,
    depends_on VARCHAR(36) NOT NULL,
    PRIMARY KEY (job_id, depends_on),
    INDEX jobqueue_job_dependency_on (depends_on),
    CONSTRAINT jobqueue_job_dependency_fk FOREIGN KEY (job_id) REFERENCES jobqueue_job (id) ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- One row per job group; finishing a group's jobs locks it, so exactly one finisher sees the group end.
CREATE TABLE IF NOT EXISTS jobqueue_group (
    name       VARCHAR(200) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL PRIMARY KEY,
    created_at DATETIME(6)  NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- Cluster-wide queue switches: a paused queue is not claimed by any node.
CREATE TABLE IF NOT EXISTS jobqueue_queue (
    name       VARCHAR(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL PRIMARY KEY,
    paused     BOOLEAN      NOT NULL,
    updated_at DATETIME(6)  NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
-- A queue's flow control, added by ALTER so that running this script again upgrades a table made by an earlier
-- version: paused_until, set by a consumer's QueueBackoffException; an admin's overrides of the configured limits
-- (rate_limit: '50/1s' or 'none'; max_running: 0 for none; NULL keeps the configuration); the starts of a
-- rate-limited queue in its last period (start_window, '<epoch millis>:<count>,...').
ALTER TABLE jobqueue_queue ADD COLUMN IF NOT EXISTS paused_until DATETIME(6);
ALTER TABLE jobqueue_queue ADD COLUMN IF NOT EXISTS rate_limit VARCHAR(64);
ALTER TABLE jobqueue_queue ADD COLUMN IF NOT EXISTS max_running INTEGER;
ALTER TABLE jobqueue_queue ADD COLUMN IF NOT EXISTS start_window VARCHAR(2000);

-- Recurring schedules. An occurrence's job is put in the transaction that moves next_fire_at past it.
CREATE TABLE IF NOT EXISTS jobqueue_schedule (
    name            VARCHAR(200) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL PRIMARY KEY,
    queue           VARCHAR(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
    cron            VARCHAR(200) NOT NULL,
    zone            VARCHAR(100) NOT NULL,
    payload         LONGTEXT,
    missed          VARCHAR(16)  NOT NULL,
    missed_after_ms BIGINT       NOT NULL,
    catch_up_limit  INTEGER      NOT NULL,
    overlap         VARCHAR(16)  NOT NULL,
    declared        BOOLEAN      NOT NULL,
    enabled         BOOLEAN      NOT NULL,
    paused          BOOLEAN      NOT NULL,
    next_fire_at    DATETIME(6)  NOT NULL,
    last_fire_at    DATETIME(6),
    last_job_id     VARCHAR(36),
    updated_at      DATETIME(6)  NOT NULL,
    INDEX jobqueue_schedule_due (next_fire_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- Set when a declared schedule was turned off because no running node declared it any more. Added by ALTER so that
-- running this script again upgrades a table made by an earlier version.
ALTER TABLE jobqueue_schedule ADD COLUMN IF NOT EXISTS declaration_gone BOOLEAN NOT NULL DEFAULT FALSE;

-- Each distinct @Recurring declaration of a schedule, by a hash of its definition: when a node first declared it,
-- and when a running node last did. Of those declared lately, the one first declared last is in force.
CREATE TABLE IF NOT EXISTS jobqueue_schedule_declaration (
    schedule    VARCHAR(200) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
    fingerprint VARCHAR(64)  NOT NULL,
    declared_at DATETIME(6)  NOT NULL,
    seen_at     DATETIME(6)  NOT NULL,
    PRIMARY KEY (schedule, fingerprint)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
