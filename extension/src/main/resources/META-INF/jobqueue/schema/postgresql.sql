-- jobqueue schema for PostgreSQL. Idempotent: safe to run again, and ready for Flyway or Liquibase.
CREATE TABLE IF NOT EXISTS jobqueue_job (
    id               VARCHAR(36)  NOT NULL PRIMARY KEY,
    queue            VARCHAR(100) NOT NULL,
    state            VARCHAR(16)  NOT NULL,
    payload          TEXT         NOT NULL,
    attempts         INTEGER      NOT NULL,
    run_at           TIMESTAMP WITH TIME ZONE NOT NULL,
    created_at       TIMESTAMP WITH TIME ZONE NOT NULL,
    started_at       TIMESTAMP WITH TIME ZONE,
    finished_at      TIMESTAMP WITH TIME ZONE,
    lease_token      VARCHAR(36),
    lease_expires_at TIMESTAMP WITH TIME ZONE,
    last_error       TEXT
);
-- Claiming reads only due PENDING rows of one queue, however many DONE and FAILED rows there are.
CREATE INDEX IF NOT EXISTS jobqueue_job_pending ON jobqueue_job (queue, run_at, id) WHERE state = 'PENDING';
-- Lease renewal and rescue touch only RUNNING rows.
CREATE INDEX IF NOT EXISTS jobqueue_job_lease ON jobqueue_job (lease_token) WHERE state = 'RUNNING';
CREATE INDEX IF NOT EXISTS jobqueue_job_lease_expiry ON jobqueue_job (lease_expires_at) WHERE state = 'RUNNING';
-- Admin listings of dead letters, and retention's deletes of old DONE jobs.
CREATE INDEX IF NOT EXISTS jobqueue_job_failed ON jobqueue_job (queue, finished_at) WHERE state = 'FAILED';
CREATE INDEX IF NOT EXISTS jobqueue_job_done ON jobqueue_job (queue, finished_at) WHERE state = 'DONE';

-- Every failed attempt's error, deleted with its job.
CREATE TABLE IF NOT EXISTS jobqueue_job_error (
    id        VARCHAR(36) NOT NULL PRIMARY KEY,
    job_id    VARCHAR(36) NOT NULL REFERENCES jobqueue_job (id) ON DELETE CASCADE,
    attempt   INTEGER     NOT NULL,
    failed_at TIMESTAMP WITH TIME ZONE NOT NULL,
    error     TEXT        NOT NULL
);
CREATE INDEX IF NOT EXISTS jobqueue_job_error_job ON jobqueue_job_error (job_id, attempt);

-- Cluster-wide queue switches: a paused queue is not claimed by any node.
CREATE TABLE IF NOT EXISTS jobqueue_queue (
    name       VARCHAR(100) NOT NULL PRIMARY KEY,
    paused     BOOLEAN      NOT NULL,
    updated_at TIMESTAMP WITH TIME ZONE NOT NULL
);
