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
CREATE INDEX IF NOT EXISTS jobqueue_job_claim ON jobqueue_job (queue, state, run_at);
-- Lease renewal and rescue.
CREATE INDEX IF NOT EXISTS jobqueue_job_lease ON jobqueue_job (lease_token);
CREATE INDEX IF NOT EXISTS jobqueue_job_lease_expiry ON jobqueue_job (state, lease_expires_at);
