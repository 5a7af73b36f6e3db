-- jobqueue schema for H2 2.x, the embedded default. Idempotent: safe to run again.
CREATE TABLE IF NOT EXISTS jobqueue_job (
    id               VARCHAR(36)  NOT NULL PRIMARY KEY,
    queue            VARCHAR(100) NOT NULL,
    state            VARCHAR(16)  NOT NULL,
    payload          CHARACTER LARGE OBJECT NOT NULL,
    attempts         INTEGER      NOT NULL,
    run_at           TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    created_at       TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    started_at       TIMESTAMP(6) WITH TIME ZONE,
    finished_at      TIMESTAMP(6) WITH TIME ZONE,
    lease_token      VARCHAR(36),
    lease_expires_at TIMESTAMP(6) WITH TIME ZONE,
    last_error       CHARACTER LARGE OBJECT
);
CREATE INDEX IF NOT EXISTS jobqueue_job_pending ON jobqueue_job (queue, state, run_at, id);
CREATE INDEX IF NOT EXISTS jobqueue_job_lease ON jobqueue_job (lease_token);
CREATE INDEX IF NOT EXISTS jobqueue_job_lease_expiry ON jobqueue_job (state, lease_expires_at);
CREATE INDEX IF NOT EXISTS jobqueue_job_finished ON jobqueue_job (queue, state, finished_at);
CREATE TABLE IF NOT EXISTS jobqueue_job_error (
    id        VARCHAR(36) NOT NULL PRIMARY KEY,
    job_id    VARCHAR(36) NOT NULL REFERENCES jobqueue_job (id) ON DELETE CASCADE,
    attempt   INTEGER     NOT NULL,
    failed_at TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    error     CHARACTER LARGE OBJECT NOT NULL
);
CREATE INDEX IF NOT EXISTS jobqueue_job_error_job ON jobqueue_job_error (job_id, attempt);
CREATE TABLE IF NOT EXISTS jobqueue_queue (
    name       VARCHAR(100) NOT NULL PRIMARY KEY,
    paused     BOOLEAN      NOT NULL,
    updated_at TIMESTAMP(6) WITH TIME ZONE NOT NULL
);
