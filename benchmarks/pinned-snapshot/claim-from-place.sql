-- The same round, claiming from where this client's last claim ended, as ClaimCursor has SqlClaimStore do:
-- the last job's priority, and its due time less one second (pgbench keeps the place as epoch seconds).
\set lease random(1, 1000000000)
BEGIN;
SET LOCAL synchronous_commit = off;
WITH claimed AS (SELECT j.id FROM jobqueue_job j
    WHERE j.queue = 'q' AND j.state = 'PENDING' AND j.run_at <= now() AND j.attempts <= 2147483647
        AND NOT EXISTS (SELECT 1 FROM jobqueue_queue q WHERE q.name = 'q' AND (q.paused = TRUE OR q.paused_until > now()))
        AND (j.ordering_key IS NULL OR NOT EXISTS (SELECT 1 FROM jobqueue_job o WHERE o.queue = j.queue
            AND o.ordering_key = j.ordering_key AND o.seq < j.seq AND o.state IN ('PENDING', 'RUNNING', 'WAITING')))
        AND j.priority = 0 AND j.run_at >= to_timestamp(:due_from)
    ORDER BY j.priority DESC, j.run_at, j.seq LIMIT 4 FOR UPDATE SKIP LOCKED),
taken AS (UPDATE jobqueue_job u SET state = 'RUNNING', attempts = attempts + 1, lease_token = 'lease-:lease',
        claimed_by = 'bench', lease_expires_at = now() + interval '1 minute', started_at = now()
    FROM claimed WHERE u.id = claimed.id RETURNING u.id, u.run_at)
SELECT coalesce(array_agg(id)::text, '{}') AS ids,
       coalesce(extract(epoch FROM max(run_at)) - 1, :due_from) AS due_from FROM taken \gset
COMMIT;
UPDATE jobqueue_job SET state = 'DONE', finished_at = now(), lease_token = NULL, lease_expires_at = NULL
    WHERE id = ANY (':ids'::text[]) AND lease_token = 'lease-:lease' AND state = 'RUNNING';
