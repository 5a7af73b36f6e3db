-- One client's round, as SqlClaimStore claims from the first due job: claim four jobs (synchronous_commit off),
-- then finish them, fenced by the claim's lease token, in a durable commit.
\set lease random(1, 1000000000)
BEGIN;
SET LOCAL synchronous_commit = off;
WITH claimed AS (SELECT j.id FROM jobqueue_job j
    WHERE j.queue = 'q' AND j.state = 'PENDING' AND j.run_at <= now() AND j.attempts <= 2147483647
        AND NOT EXISTS (SELECT 1 FROM jobqueue_queue q WHERE q.name = 'q' AND (q.paused = TRUE OR q.paused_until > now()))
        AND (j.ordering_key IS NULL OR NOT EXISTS (SELECT 1 FROM jobqueue_job o WHERE o.queue = j.queue
            AND o.ordering_key = j.ordering_key AND o.seq < j.seq AND o.state IN ('PENDING', 'RUNNING', 'WAITING')))
    ORDER BY j.priority DESC, j.run_at, j.seq LIMIT 4 FOR UPDATE SKIP LOCKED),
taken AS (UPDATE jobqueue_job u SET state = 'RUNNING', attempts = attempts + 1, lease_token = 'lease-:lease',
        claimed_by = 'bench', lease_expires_at = now() + interval '1 minute', started_at = now()
    FROM claimed WHERE u.id = claimed.id RETURNING u.id)
SELECT coalesce(array_agg(id)::text, '{}') AS ids FROM taken \gset
COMMIT;
UPDATE jobqueue_job SET state = 'DONE', finished_at = now(), lease_token = NULL, lease_expires_at = NULL
    WHERE id = ANY (':ids'::text[]) AND lease_token = 'lease-:lease' AND state = 'RUNNING';
