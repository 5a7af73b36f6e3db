-- jobqueue schema for MariaDB 10.6+ and MySQL 8+. Idempotent: safe to run again, and ready for Flyway or Liquibase.
CREATE TABLE IF NOT EXISTS jobqueue_job (
    id               VARCHAR(36)  NOT NULL PRIMARY KEY,
    queue            VARCHAR(100) NOT NULL,
    state            VARCHAR(16)  NOT NULL,
    payload          LONGTEXT     NOT NULL,
    attempts         INT          NOT NULL,
    run_at           DATETIME(6)  NOT NULL,
    created_at       DATETIME(6)  NOT NULL,
    started_at       DATETIME(6),
    finished_at      DATETIME(6),
    lease_token      VARCHAR(36),
    lease_expires_at DATETIME(6),
    last_error       TEXT
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
-- Claiming reads only due PENDING rows of one queue.
CREATE INDEX IF NOT EXISTS jobqueue_job_pending ON jobqueue_job (queue, state, run_at, id);
-- Lease renewal and rescue.
CREATE INDEX IF NOT EXISTS jobqueue_job_lease ON jobqueue_job (lease_token);
CREATE INDEX IF NOT EXISTS jobqueue_job_lease_expiry ON jobqueue_job (state, lease_expires_at);
-- Admin listings of dead letters, and retention's deletes of old DONE jobs.
CREATE INDEX IF NOT EXISTS jobqueue_job_finished ON jobqueue_job (queue, state, finished_at);

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

-- Cluster-wide queue switches: a paused queue is not claimed by any node.
CREATE TABLE IF NOT EXISTS jobqueue_queue (
    name       VARCHAR(100) NOT NULL PRIMARY KEY,
    paused     BOOLEAN      NOT NULL,
    updated_at DATETIME(6)  NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
